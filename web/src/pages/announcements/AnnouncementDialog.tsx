import { ANNOUNCEMENT_MEDIA_ACCEPT, type AnnouncementAdminDTO } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import CloseIcon from "@mui/icons-material/Close";
import ImageIcon from "@mui/icons-material/ImageOutlined";
import {
  Autocomplete,
  Box,
  Button,
  Chip,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  removeAnnouncementMedia,
  saveAnnouncement,
  uploadAnnouncementMedia,
  upsertAnnouncementInLists,
} from "../../api/announcements";
import { companiesKeys, fetchAllCompanies } from "../../api/companies";
import { toast } from "../../api/toast";
import { AnnouncementImage } from "../../components/AnnouncementImage";
import { FormDialog } from "../../components/FormDialog";
import { applyServerErrors, fieldErrorText, fieldBinder } from "../../components/formFields";
import {
  type AnnouncementFormOutput,
  type AnnouncementFormValues,
  announcementFormResolver,
  initialAnnouncementValues,
  toAnnouncementPayload,
} from "./announcementForm";

interface AnnouncementDialogProps {
  /** The announcement to edit; null to create one. */
  announcement: AnnouncementAdminDTO | null;
  onClose(): void;
}

const FIELDS = ["title", "text", "priority", "status", "allCompanies", "companyIds"] as const;

/**
 * Creates or edits an announcement: title, text, priority, status, whom it goes to and a picture
 * (sent after the text is saved). Esc closes, Enter in the title saves.
 */
export function AnnouncementDialog({ announcement, onClose }: AnnouncementDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  /** Once saved, a retry (the picture refused) changes that one rather than creating another. */
  const savedId = useRef<number | null>(announcement?.id ?? null);
  /** A new file to send, or "remove" to drop the current one. */
  const [media, setMedia] = useState<File | "remove" | null>(null);
  const companies = useQuery({
    queryKey: companiesKeys.everyOne(),
    queryFn: ({ signal }) => fetchAllCompanies(signal),
  });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AnnouncementFormValues, unknown, AnnouncementFormOutput>({
    defaultValues: initialAnnouncementValues(announcement),
    resolver: announcementFormResolver,
  });
  const fieldProps = fieldBinder(register, errors);
  const allCompanies = useWatch({ control, name: "allCompanies" });
  const currentName =
    media instanceof File ? media.name : media === "remove" ? null : announcement?.mediaName;

  async function submit(values: AnnouncementFormOutput) {
    try {
      let saved = await saveAnnouncement(savedId.current, toAnnouncementPayload(values));
      savedId.current = saved.id;
      upsertAnnouncementInLists(queryClient, saved);
      if (media instanceof File) saved = await uploadAnnouncementMedia(saved.id, media);
      else if (media === "remove" && saved.mediaPath) saved = await removeAnnouncementMedia(saved.id);
      upsertAnnouncementInLists(queryClient, saved);
      toast(t("announcements.saved"), "success");
      onClose();
    } catch (error) {
      applyServerErrors(error, setError, { fieldOf: (path) => FIELDS.find((f) => f === path) });
    }
  }

  return (
    <FormDialog
      title={t(announcement ? "announcements.dialog.editTitle" : "announcements.dialog.addTitle")}
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <Stack spacing={2.5}>
        <TextField
          {...fieldProps("title")}
          id="announcement-title"
          label={t("announcements.dialog.title")}
          autoFocus
          required
          autoComplete="off"
        />
        <TextField
          {...fieldProps("text")}
          id="announcement-text"
          label={t("announcements.dialog.text")}
          required
          multiline
          minRows={4}
          maxRows={12}
        />
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
          <Controller
            control={control}
            name="priority"
            render={({ field }) => (
              <TextField
                select
                fullWidth
                id="announcement-priority"
                label={t("announcements.dialog.priority")}
                value={field.value}
                onChange={(event) => field.onChange(Number(event.target.value))}
                inputRef={field.ref}
              >
                {([1, 2, 3] as const).map((p) => (
                  <MenuItem key={p} value={p}>
                    {t(`announcements.priority.${p}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="status"
            render={({ field }) => (
              <TextField
                select
                fullWidth
                id="announcement-status"
                label={t("announcements.dialog.status")}
                value={field.value ? "active" : "inactive"}
                onChange={(event) => field.onChange(event.target.value === "active")}
                inputRef={field.ref}
              >
                <MenuItem value="active">{t("announcements.status.active")}</MenuItem>
                <MenuItem value="inactive">{t("announcements.status.inactive")}</MenuItem>
              </TextField>
            )}
          />
        </Stack>
        <Controller
          control={control}
          name="allCompanies"
          render={({ field }) => (
            <FormControlLabel
              control={
                <Switch
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  slotProps={{ input: { ref: field.ref } }}
                />
              }
              label={t("announcements.dialog.allCompanies")}
            />
          )}
        />
        {!allCompanies && (
          <Controller
            control={control}
            name="companyIds"
            render={({ field }) => {
              const options = companies.data ?? [];
              const chosen = options.filter((c) => (field.value as number[]).includes(c.id));
              return (
                <Autocomplete
                  multiple
                  options={options}
                  loading={companies.isLoading}
                  value={chosen}
                  getOptionLabel={(c) => c.name}
                  isOptionEqualToValue={(x, y) => x.id === y.id}
                  onChange={(_, value) => field.onChange(value.map((c) => c.id))}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      inputRef={field.ref}
                      label={t("announcements.dialog.companies")}
                      error={Boolean(errors.companyIds)}
                      helperText={
                        fieldErrorText(errors.companyIds) ?? t("announcements.dialog.companiesHelp")
                      }
                    />
                  )}
                />
              );
            }}
          />
        )}
        <Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept={ANNOUNCEMENT_MEDIA_ACCEPT}
              aria-label={t("announcements.dialog.attach")}
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) setMedia(file);
                event.target.value = "";
              }}
            />
            <Button startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
              {t("announcements.dialog.attach")}
            </Button>
            {currentName ? (
              <Chip
                icon={<ImageIcon />}
                label={currentName}
                onDelete={() => setMedia(media instanceof File ? null : "remove")}
                deleteIcon={<CloseIcon aria-label={t("announcements.dialog.removeMedia")} />}
                sx={{ maxWidth: 320 }}
              />
            ) : (
              <Typography variant="caption" color="text.secondary">
                {t("announcements.dialog.attachHint")}
              </Typography>
            )}
          </Stack>
          {announcement && media === null && <AnnouncementImage record={announcement} maxHeight={160} />}
        </Box>
      </Stack>
    </FormDialog>
  );
}
