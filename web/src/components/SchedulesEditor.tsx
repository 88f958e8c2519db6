import type { ScheduleEntry } from "@atende/contracts";
import { Chip, Stack, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";

/** Keeps digits only and writes them as ##:##. */
export function timeMask(text: string): string {
  const digits = text.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

interface SchedulesEditorProps {
  /** Seven rows in week order. */
  value: ScheduleEntry[];
  onChange(next: ScheduleEntry[]): void;
  /** The error text of one time field, if any. */
  errorOf(index: number, part: "startTime" | "endTime"): string | undefined;
  /** Prefix of the inputs' ids, so two editors on one page do not clash. */
  idPrefix: string;
}

/** A week of opening hours: one row per weekday with a start and an end time (a queue's or the company's). */
export function SchedulesEditor({ value, onChange, errorOf, idPrefix }: SchedulesEditorProps) {
  const { t } = useTranslation();

  function change(index: number, part: "startTime" | "endTime", text: string) {
    onChange(value.map((entry, i) => (i === index ? { ...entry, [part]: timeMask(text) } : entry)));
  }

  return (
    <Stack spacing={1.5}>
      {value.map((entry, index) => {
        const dayName = t(`queues.weekdays.${entry.weekdayEn}`);
        const closed = entry.startTime === entry.endTime && /^\d\d:\d\d$/.test(entry.startTime);
        return (
          <Stack
            key={entry.weekdayEn}
            direction={{ xs: "column", sm: "row" }}
            spacing={2}
            sx={{ alignItems: { sm: "center" } }}
          >
            <Stack direction="row" spacing={1} sx={{ width: { sm: 200 }, alignItems: "center" }}>
              <Typography sx={{ fontWeight: 500 }}>{dayName}</Typography>
              {closed && <Chip size="small" label={t("queues.closed")} />}
            </Stack>
            {(["startTime", "endTime"] as const).map((part) => (
              <TextField
                key={part}
                id={`${idPrefix}-${entry.weekdayEn}-${part}`}
                label={t(`queues.${part}`)}
                value={entry[part]}
                onChange={(event) => change(index, part, event.target.value)}
                placeholder="00:00"
                size="small"
                error={Boolean(errorOf(index, part))}
                helperText={errorOf(index, part)}
                slotProps={{
                  htmlInput: {
                    inputMode: "numeric",
                    maxLength: 5,
                    "aria-label": `${dayName}: ${t(`queues.${part}`)}`,
                  },
                }}
                sx={{ flex: 1 }}
              />
            ))}
          </Stack>
        );
      })}
    </Stack>
  );
}
