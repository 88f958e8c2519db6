import { DASHBOARD_PERIODS } from "@atende/contracts";
import { MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { PeriodFilter } from "../api/period";
import { dayOf } from "../i18n/format";
import { DateField } from "./DateFields";

/** What the filter controls hold; `days` 0 is "none selected". */
export interface FilterForm {
  type: "dates" | "period";
  from: string;
  to: string;
  days: number;
}

/** By default the last 7 days; by date, this month so far (on the company's clock). */
export function initialFilterForm(today = new Date()): FilterForm {
  const day = dayOf(today);
  return { type: "period", from: `${day.slice(0, 8)}01`, to: day, days: 7 };
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
          <DateField
            size="small"
            label={t("dashboard.filter.initialDate")}
            value={value.from}
            onChange={(from) => onChange({ ...value, from })}
            maxDate={value.to || undefined}
            error={invalid}
            helperText={invalid ? t("dashboard.filter.invalidRange") : undefined}
          />
          <DateField
            size="small"
            label={t("dashboard.filter.finalDate")}
            value={value.to}
            onChange={(to) => onChange({ ...value, to })}
            minDate={value.from || undefined}
            error={invalid}
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
