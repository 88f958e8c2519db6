import { isScheduleEditable, mayEditSchedule, SCHEDULE, type ScheduleDTO } from "@atende/contracts";
import CloseIcon from "@mui/icons-material/Close";
import ImageIcon from "@mui/icons-material/ImageOutlined";
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Chip,
  FormHelperText,
  MenuItem,
  Stack,
  TextField,
} from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  removeScheduleMedia,
  saveSchedule,
  uploadScheduleMedia,
  upsertScheduleInLists,
} from "../../api/schedules";
import { toast } from "../../api/toast";
import { useWhatsapps } from "../../api/whatsapps";
import { useSessionUser } from "../../auth/AuthContext";
import { applyServerErrors, fieldErrorText, textFieldRegister } from "../../components/formFields";
import { calendarDay, dayOf, formatDate, formatTime } from "../../i18n/format";
import { DateTimeField, atCompanyTime } from "../../components/DateFields";
import { ContactSearchField } from "../../components/ContactSearchField";
import {
  initialScheduleValues,
  isScheduleImage,
  scheduleFormResolver,
  type ScheduleFormOutput,
  type ScheduleFormValues,
  toFormInstant,
} from "./scheduleForm";
import { scheduleErrorText, ScheduleStatusChip } from "./scheduleStatus";
import { FormDialog } from "../../components/FormDialog";

interface ScheduleDialogProps {
  /** The schedule to edit or see; null to create one. */
  schedule: ScheduleDTO | null;
  /** A new schedule's day (from the calendar): its time stays one hour ahead of now, or 09:00. */
  day?: Date | null;
  onClose(): void;
}

const FIELDS = { contactId: "contact", body: "body", sendAt: "sendAt", whatsappId: "whatsappId" } as const;

/** The connection a new schedule goes through by default: the user's own, else the company's default. */
function defaultConnection(
  userWhatsappId: number | null,
  list: { id: number; isDefault: boolean }[],
): number | "" {
  if (userWhatsappId && list.some((w) => w.id === userWhatsappId)) return userWhatsappId;
  return list.find((w) => w.isDefault)?.id ?? "";
}

/**
 * Creates, edits or shows a schedule: contact, message, send time (one hour ahead by default), the
 * connection and a png/jpg image. Once sent it is read-only; a failed one shows 'Erro de Envio' with
 * the reason and may be saved again to retry.
 */
export function ScheduleDialog(props: ScheduleDialogProps) {
  const whatsapps = useWhatsapps();
  // The default connection must be known before the form takes its initial values.
  if (!props.schedule && whatsapps.isPending) return null;
  return <ScheduleForm {...props} connections={whatsapps.data ?? []} />;
}

function ScheduleForm({
  schedule,
  day,
  onClose,
  connections,
}: ScheduleDialogProps & { connections: { id: number; name: string; isDefault: boolean }[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const fileInput = useRef<HTMLInputElement>(null);
  const mayChange = !schedule || mayEditSchedule(user, user.id, schedule);
  const readOnly = schedule !== null && (!isScheduleEditable(schedule) || !mayChange);
  const [media, setMedia] = useState<File | "remove" | null>(null);
  const [mediaError, setMediaError] = useState<string | null>(null);

  const initial = initialScheduleValues(schedule, {
    whatsappId: defaultConnection(user.whatsappId, connections),
  });
  if (!schedule && day) {
    // A day of the calendar: an hour ahead when it is today, else 9:00 there, on the company's clock.
    const ahead = new Date(Date.now() + SCHEDULE.defaultLeadMs);
    const target = calendarDay(day);
    initial.sendAt = dayOf(ahead) === target ? toFormInstant(ahead) : atCompanyTime(target, 9);
  }
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ScheduleFormValues, unknown, ScheduleFormOutput>({
    defaultValues: initial,
    resolver: scheduleFormResolver,
  });

  const mediaName = media instanceof File ? media.name : media === "remove" ? null : schedule?.mediaName;

  function showServerErrors(error: unknown) {
    applyServerErrors(error, setError, {
      fieldOf: (path) => FIELDS[path as keyof typeof FIELDS],
      elsewhere: (path, message) => {
        if (path !== "file") return false;
        setMediaError(message);
        return true;
      },
    });
  }

  async function submit(values: ScheduleFormOutput) {
    try {
      const id = schedule?.id ?? null;
      // An existing schedule gets its image first, so a send due at once goes with it.
      if (id !== null && media instanceof File) await uploadScheduleMedia(id, media);
      if (id !== null && media === "remove" && schedule?.mediaPath) await removeScheduleMedia(id);
      let saved = await saveSchedule(id, {
        body: values.body,
        contactId: values.contact!.id,
        sendAt: new Date(values.sendAt).toISOString(),
        whatsappId: values.whatsappId === "" ? null : values.whatsappId,
      });
      if (id === null && media instanceof File) saved = await uploadScheduleMedia(saved.id, media);
      upsertScheduleInLists(queryClient, saved);
      toast(t("schedules.saved"), "success");
      onClose();
    } catch (error) {
      showServerErrors(error);
    }
  }

  const title = readOnly
    ? "schedules.dialog.viewTitle"
    : schedule
      ? "schedules.dialog.editTitle"
      : "schedules.dialog.addTitle";

  return (
    <FormDialog
      title={t(title)}
      titleAdornment={schedule && <ScheduleStatusChip schedule={schedule} />}
      readOnly={readOnly}
      closeLabel={t("schedules.dialog.close")}
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
    >
      <Stack spacing={2.5}>
        {schedule?.status === "ERRO" && (
          <Alert severity="error">
            <AlertTitle>{t("schedules.errorTitle")}</AlertTitle>
            {scheduleErrorText(t, schedule.error)}
          </Alert>
        )}
        {readOnly && schedule?.sentAt && (
          <Alert severity="success">
            {t("schedules.dialog.readOnly", {
              date: formatDate(schedule.sentAt),
              time: formatTime(schedule.sentAt),
            })}
          </Alert>
        )}
        <Controller
          control={control}
          name="contact"
          render={({ field }) => (
            <ContactSearchField
              texts="schedules.dialog"
              value={field.value ?? null}
              onChange={field.onChange}
              inputRef={field.ref}
              autoFocus={!schedule}
              disabled={readOnly}
              error={fieldErrorText(errors.contact)}
            />
          )}
        />
        <TextField
          {...textFieldRegister(register("body"))}
          id="schedule-body"
          label={t("schedules.dialog.body")}
          required
          multiline
          minRows={4}
          maxRows={12}
          disabled={readOnly}
          error={Boolean(errors.body)}
          helperText={fieldErrorText(errors.body)}
        />
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
          <Controller
            control={control}
            name="sendAt"
            render={({ field }) => (
              <DateTimeField
                id="schedule-send-at"
                label={t("schedules.dialog.sendAt")}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                required
                disabled={readOnly}
                error={Boolean(errors.sendAt)}
                helperText={fieldErrorText(errors.sendAt)}
                sx={{ flex: 1 }}
              />
            )}
          />
          <Controller
            control={control}
            name="whatsappId"
            render={({ field }) => (
              <TextField
                select
                id="schedule-connection"
                label={t("schedules.dialog.connection")}
                value={field.value}
                onChange={(event) =>
                  field.onChange(event.target.value === "" ? "" : Number(event.target.value))
                }
                inputRef={field.ref}
                disabled={readOnly}
                error={Boolean(errors.whatsappId)}
                helperText={fieldErrorText(errors.whatsappId)}
                slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
                sx={{ flex: 1 }}
              >
                <MenuItem value="">
                  <em>{t("schedules.dialog.defaultConnection")}</em>
                </MenuItem>
                {connections.map((connection) => (
                  <MenuItem key={connection.id} value={connection.id}>
                    {connection.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Stack>
        <Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept={SCHEDULE.mediaAccept}
              aria-label={t("schedules.dialog.attach")}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (!file) return;
                if (!isScheduleImage(file)) {
                  setMediaError(t("schedules.dialog.attachHint"));
                  return;
                }
                setMediaError(null);
                setMedia(file);
              }}
            />
            {!readOnly && (
              <Button startIcon={<ImageIcon />} onClick={() => fileInput.current?.click()}>
                {t("schedules.dialog.attach")}
              </Button>
            )}
            {mediaName && (
              <Chip
                icon={<ImageIcon />}
                label={mediaName}
                onDelete={readOnly ? undefined : () => setMedia(media instanceof File ? null : "remove")}
                deleteIcon={<CloseIcon aria-label={t("schedules.dialog.removeMedia")} />}
                sx={{ maxWidth: 320 }}
              />
            )}
          </Stack>
          <FormHelperText error={Boolean(mediaError)}>
            {mediaError ?? (readOnly ? "" : t("schedules.dialog.attachHint"))}
          </FormHelperText>
        </Box>
      </Stack>
    </FormDialog>
  );
}
