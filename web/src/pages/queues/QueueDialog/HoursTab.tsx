import type { QueueSaveInput } from "@atende/contracts";
import { Stack, TextField, Typography } from "@mui/material";
import { Controller, useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { fieldErrorText, textFieldRegister } from "../../../components/formFields";
import { SchedulesEditor } from "../../../components/SchedulesEditor";
import type { QueueFormValues } from "./queueForm";

/** The queue's service hours and the message sent outside them (scheduleType "queue"). */
export function HoursTab() {
  const { t } = useTranslation();
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<QueueFormValues, unknown, QueueSaveInput>();
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {t("queues.dialog.hoursHint")}
      </Typography>
      <Controller
        control={control}
        name="schedules"
        render={({ field }) => (
          <SchedulesEditor
            idPrefix="queue-hours"
            value={field.value}
            onChange={field.onChange}
            errorOf={(index, part) => fieldErrorText(errors.schedules?.[index]?.[part])}
          />
        )}
      />
      <TextField
        {...textFieldRegister(register("outOfHoursMessage"))}
        id="queue-out-of-hours"
        label={t("queues.dialog.outOfHoursMessage")}
        multiline
        minRows={2}
        maxRows={6}
        error={Boolean(errors.outOfHoursMessage)}
        helperText={fieldErrorText(errors.outOfHoursMessage)}
      />
    </Stack>
  );
}
