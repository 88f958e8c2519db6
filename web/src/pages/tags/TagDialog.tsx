import type { TagDTO } from "@atende/contracts";
import { Box, FormControlLabel, FormHelperText, Stack, Switch, TextField } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { saveTag, upsertTagInLists } from "../../api/tags";
import { toast } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { can } from "../../auth/permissions";
import { planAllows } from "../../auth/plan";
import { ColorPicker } from "../../components/ColorPicker";
import { applyServerErrors, fieldErrorText, fieldBinder } from "../../components/formFields";
import { TagChip } from "../../components/TagChip";
import {
  initialTagValues,
  tagFormResolver,
  toTagPayload,
  type TagFormOutput,
  type TagFormValues,
} from "./tagForm";
import { FormDialog } from "../../components/FormDialog";

interface TagDialogProps {
  /** The tag to edit; null to create one. */
  tag: TagDTO | null;
  onClose(): void;
}

const FIELDS = ["name", "color", "kanban"] as const;

/** Creates or edits a tag: name, colour and, for admin and supervisor, the kanban switch. Esc closes, Enter saves. */
export function TagDialog({ tag, onClose }: TagDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  // Admin and supervisor, on a plan with kanban; a lane kept from a better plan may still be switched off.
  const canSwitchKanban =
    can(user, "tags:kanbanSwitch") && (planAllows(user, "useKanban") || tag?.kanban === 1);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TagFormValues, unknown, TagFormOutput>({
    defaultValues: initialTagValues(tag),
    resolver: tagFormResolver,
  });
  const fieldProps = fieldBinder(register, errors);
  const [name, color] = useWatch({ control, name: ["name", "color"] });

  function showServerErrors(error: unknown) {
    applyServerErrors(error, setError, {
      codes: { ERR_TAG_NAME_TAKEN: "name" },
      fieldOf: (path) => FIELDS.find((f) => f === path),
    });
  }

  async function submit(values: TagFormOutput) {
    try {
      const saved = await saveTag(tag?.id ?? null, toTagPayload(values, canSwitchKanban));
      upsertTagInLists(queryClient, saved);
      toast(t("tags.saved"), "success");
      onClose();
    } catch (error) {
      showServerErrors(error);
    }
  }

  return (
    <FormDialog
      title={t(tag ? "tags.dialog.editTitle" : "tags.dialog.addTitle")}
      maxWidth="xs"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <Stack spacing={2.5}>
        <TextField
          {...fieldProps("name")}
          id="tag-name"
          label={t("tags.dialog.name")}
          autoFocus
          required
          autoComplete="off"
        />
        <Controller
          control={control}
          name="color"
          render={({ field }) => (
            <ColorPicker value={field.value} onChange={field.onChange} error={fieldErrorText(errors.color)} />
          )}
        />
        {canSwitchKanban && (
          <Box>
            <Controller
              control={control}
              name="kanban"
              render={({ field }) => (
                <FormControlLabel
                  control={
                    <Switch
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      slotProps={{ input: { ref: field.ref } }}
                    />
                  }
                  label={t("tags.dialog.kanban")}
                />
              )}
            />
            <FormHelperText sx={{ mt: 0 }}>{t("tags.dialog.kanbanHelp")}</FormHelperText>
          </Box>
        )}
        <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
          <Box component="span" sx={{ typography: "body2", color: "text.secondary" }}>
            {t("tags.dialog.preview")}
          </Box>
          <TagChip
            name={name.trim() || t("tags.dialog.name")}
            color={/^#[0-9a-f]{3,8}$/i.test(color) ? color : "#9e9e9e"}
          />
        </Stack>
      </Stack>
    </FormDialog>
  );
}
