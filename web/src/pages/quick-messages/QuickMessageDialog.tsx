import type { QuickMessageDTO } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import CloseIcon from "@mui/icons-material/Close";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFileOutlined";
import { Box, Button, Chip, FormControlLabel, Stack, Switch, TextField } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  removeQuickMessageMedia,
  saveQuickMessage,
  uploadQuickMessageMedia,
  upsertQuickMessageInLists,
} from "../../api/quickMessages";
import { toast } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { can } from "../../auth/permissions";
import {
  applyServerErrors,
  fieldErrorText,
  textFieldRegister,
  fieldBinder,
} from "../../components/formFields";
import {
  initialQuickMessageValues,
  quickMessageFormResolver,
  type QuickMessageFormOutput,
  type QuickMessageFormValues,
} from "./quickMessageForm";
import { FormDialog } from "../../components/FormDialog";

interface QuickMessageDialogProps {
  /** The quick message to edit; null to create one. */
  quickMessage: QuickMessageDTO | null;
  onClose(): void;
}

const FIELDS = ["shortcode", "message", "geral"] as const;

/**
 * Creates or edits a quick message: shortcode, message, an optional attachment and, for admins,
 * the global flag. The attachment is sent after the text is saved. Esc closes, Enter in the
 * shortcode saves.
 */
export function QuickMessageDialog({ quickMessage, onClose }: QuickMessageDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const fileInput = useRef<HTMLInputElement>(null);
  const mayMakeGlobal = can(user, "quick-messages:global");
  /** A new file to send, or "remove" to drop the current one. */
  const [media, setMedia] = useState<File | "remove" | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<QuickMessageFormValues, unknown, QuickMessageFormOutput>({
    defaultValues: initialQuickMessageValues(quickMessage),
    resolver: quickMessageFormResolver,
  });
  const fieldProps = fieldBinder(register, errors);

  const currentName =
    media instanceof File ? media.name : media === "remove" ? null : quickMessage?.mediaName;

  function showServerErrors(error: unknown) {
    applyServerErrors(error, setError, { fieldOf: (path) => FIELDS.find((f) => f === path) });
  }

  async function submit(values: QuickMessageFormOutput) {
    try {
      let saved = await saveQuickMessage(quickMessage?.id ?? null, {
        shortcode: values.shortcode,
        message: values.message,
        ...(mayMakeGlobal ? { geral: values.geral } : {}),
      });
      if (media instanceof File) saved = await uploadQuickMessageMedia(saved.id, media);
      else if (media === "remove" && saved.mediaPath) saved = await removeQuickMessageMedia(saved.id);
      upsertQuickMessageInLists(queryClient, saved);
      toast(t("quickMessages.saved"), "success");
      onClose();
    } catch (error) {
      showServerErrors(error);
    }
  }

  return (
    <FormDialog
      title={t(quickMessage ? "quickMessages.dialog.editTitle" : "quickMessages.dialog.addTitle")}
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <Stack spacing={2.5}>
        <TextField
          {...textFieldRegister(register("shortcode"))}
          id="quick-message-shortcode"
          label={t("quickMessages.dialog.shortcode")}
          autoFocus
          required
          autoComplete="off"
          error={Boolean(errors.shortcode)}
          helperText={fieldErrorText(errors.shortcode) ?? t("quickMessages.dialog.shortcodeHelp")}
          slotProps={{
            input: { startAdornment: <Box sx={{ color: "text.secondary", mr: 0.5 }}>/</Box> },
          }}
        />
        <TextField
          {...fieldProps("message")}
          id="quick-message-message"
          label={t("quickMessages.dialog.message")}
          multiline
          minRows={4}
          maxRows={12}
        />
        {mayMakeGlobal && (
          <Controller
            control={control}
            name="geral"
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Switch
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    slotProps={{ input: { ref: field.ref } }}
                  />
                }
                label={t("quickMessages.dialog.global")}
              />
            )}
          />
        )}
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
          <input
            ref={fileInput}
            type="file"
            hidden
            aria-label={t("quickMessages.dialog.attach")}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) setMedia(file);
              event.target.value = "";
            }}
          />
          <Button startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
            {t("quickMessages.dialog.attach")}
          </Button>
          {currentName && (
            <Chip
              icon={<InsertDriveFileIcon />}
              label={currentName}
              onDelete={() => setMedia(media instanceof File ? null : "remove")}
              deleteIcon={<CloseIcon aria-label={t("quickMessages.dialog.removeMedia")} />}
              sx={{ maxWidth: 320 }}
            />
          )}
        </Stack>
      </Stack>
    </FormDialog>
  );
}
