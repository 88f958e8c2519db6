import { DASHBOARD_PERIODS } from "@atende/contracts";
import { MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { PeriodFilter } from "../api/period";

const pad = (n: number) => String(n).padStart(2, "0");

/** A local calendar day as YYYY-MM-DD (what a date input holds). */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** What the filter controls hold; `days` 0 is "none selected". */
export interface FilterForm {
  type: "dates" | "period";
  from: string;
  to: string;
  days: number;
}

export function initialFilterForm(today = new Date()): FilterForm {
  const firstOfMonth = new Date(today.getFullYear(), today.getMonth(), 1);
  return { type: "period", from: isoDay(firstOfMonth), to: isoDay(today), days: 7 };
}

/**
 * The filter the form asks for: null when it is not set up (no period, or a date missing),
 * "invalid" when the start date is after the end date.
 */
export function filterOf(form: FilterForm): PeriodFilter | null | "invalid" {
  if (form.type === "period") return form.days > 0 ? { kind: "period", days: form.days } : null;
  if (!form.from || !form.to) return null;
  if (form.from > form.to) return "invalid";
  return { kind: "dates", from: form.from, to: form.to };
}

export interface PeriodFieldsProps {
  value: FilterForm;
  onChange(value: FilterForm): void;
}

/** Filter type (by date or by period), then either two dates or a period of 3 to 90 days. */
export function PeriodFields({ value, onChange }: PeriodFieldsProps) {
  const { t } = useTranslation();
  const invalid = filterOf(value) === "invalid";

  return (
    <>
      <TextField
        select
        size="small"
        label={t("dashboard.filter.type")}
        value={value.type}
        onChange={(event) => onChange({ ...value, type: event.target.value as FilterForm["type"] })}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="dates">{t("dashboard.filter.byDate")}</MenuItem>
        <MenuItem value="period">{t("dashboard.filter.byPeriod")}</MenuItem>
      </TextField>
      {value.type === "dates" ? (
        <>
          <TextField
            type="date"
            size="small"
            label={t("dashboard.filter.initialDate")}
            value={value.from}
            onChange={(event) => onChange({ ...value, from: event.target.value })}
            error={invalid}
            helperText={invalid ? t("dashboard.filter.invalidRange") : undefined}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: value.to || undefined } }}
          />
          <TextField
            type="date"
            size="small"
            label={t("dashboard.filter.finalDate")}
            value={value.to}
            onChange={(event) => onChange({ ...value, to: event.target.value })}
            error={invalid}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: value.from || undefined } }}
          />
        </>
      ) : (
        <TextField
          select
          size="small"
          label={t("dashboard.filter.period")}
          value={value.days}
          onChange={(event) => onChange({ ...value, days: Number(event.target.value) })}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value={0}>{t("dashboard.filter.none")}</MenuItem>
          {DASHBOARD_PERIODS.map((days) => (
            <MenuItem key={days} value={days}>
              {t("dashboard.filter.days", { count: days })}
            </MenuItem>
          ))}
        </TextField>
      )}
    </>
  );
}
