import { WEEKDAYS, type WeekdayEn, type WhatsappSaveInput } from "@atende/contracts";
import { Stack, TextField, Typography } from "@mui/material";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { errorText, type ConnectionFormValues } from "./connectionForm";

/** Keeps digits only and writes them as ##:##. */
export function timeMask(text: string): string {
  const digits = text.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

const KNOWN_WEEKDAYS = new Set<string>(WEEKDAYS.map(([, en]) => en));

/** The opening hours: one row per weekday with a start and an end time. */
export function SchedulesTab() {
  const { t } = useTranslation();
  const {
    control,
    formState: { errors },
  } = useFormContext<ConnectionFormValues, unknown, WhatsappSaveInput>();
  const schedules = useWatch({ control, name: "schedules" });

  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {t("connectionModal.schedulesHint")}
      </Typography>
      {schedules.map((entry, index) => {
        const dayName = KNOWN_WEEKDAYS.has(entry.weekdayEn)
          ? t(`connectionModal.weekdays.${entry.weekdayEn as WeekdayEn}`)
          : entry.weekday;
        return (
          <Stack
            key={entry.weekdayEn || index}
            direction={{ xs: "column", sm: "row" }}
            spacing={2}
            sx={{ alignItems: { sm: "center" } }}
          >
            <Typography sx={{ width: { sm: 160 }, fontWeight: 500 }} id={`schedule-day-${index}`}>
              {dayName}
            </Typography>
            {(["startTime", "endTime"] as const).map((part) => (
              <Controller
                key={part}
                control={control}
                name={`schedules.${index}.${part}`}
                render={({ field: { ref, ...field } }) => (
                  <TextField
                    {...field}
                    inputRef={ref}
                    onChange={(event) => field.onChange(timeMask(event.target.value))}
                    id={`schedule-${index}-${part}`}
                    label={t(`connectionModal.${part}`)}
                    placeholder="00:00"
                    size="small"
                    error={Boolean(errors.schedules?.[index]?.[part])}
                    helperText={errorText(errors.schedules?.[index]?.[part])}
                    slotProps={{
                      htmlInput: {
                        inputMode: "numeric",
                        maxLength: 5,
                        "aria-label": `${dayName}: ${t(`connectionModal.${part}`)}`,
                      },
                    }}
                    sx={{ flex: 1 }}
                  />
                )}
              />
            ))}
          </Stack>
        );
      })}
    </Stack>
  );
}
