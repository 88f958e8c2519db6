import { pickLang } from "@atende/contracts";
import { AdapterDayjs } from "@mui/x-date-pickers/AdapterDayjs";
import { DatePicker } from "@mui/x-date-pickers/DatePicker";
import { DateTimePicker } from "@mui/x-date-pickers/DateTimePicker";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { enUS, esES, ptBR } from "@mui/x-date-pickers/locales";
import type { SxProps, Theme } from "@mui/material";
import dayjs, { type Dayjs } from "dayjs";
import "dayjs/locale/es";
import "dayjs/locale/pt-br";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import { type ReactNode, type Ref, useState } from "react";
import { useTranslation } from "react-i18next";
import { displayTimeZone } from "../i18n/format";

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Date and date-time fields in the app's language, not the browser's: MUI's pickers on dayjs with
 * the chosen language's calendar (month and weekday names, the first day of the week, dd/MM/yyyy or
 * MM/dd/yyyy, a 24-hour or an AM/PM clock) and texts. A date and time is read and written on the
 * company's clock (its time zone setting): 14:00 means 14:00 where the company is.
 */

const ADAPTER_LOCALES = { pt: "pt-br", en: "en", es: "es" } as const;
const PICKER_TEXTS = {
  pt: ptBR.components.MuiLocalizationProvider.defaultProps.localeText,
  en: enUS.components.MuiLocalizationProvider.defaultProps.localeText,
  es: esES.components.MuiLocalizationProvider.defaultProps.localeText,
};

function PickersLanguage({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const lang = pickLang(i18n.language);
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={ADAPTER_LOCALES[lang]}
      localeText={PICKER_TEXTS[lang]}
    >
      {children}
    </LocalizationProvider>
  );
}

interface FieldProps {
  id?: string;
  label: string;
  error?: boolean;
  helperText?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  size?: "small" | "medium";
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
  inputRef?: Ref<HTMLInputElement>;
  onBlur?(): void;
}

/**
 * The picker's own value while it is the one last handed out: a half-typed date is an invalid dayjs
 * the field must get back as it gave it (handing it null would wipe what was typed so far).
 */
function usePicked(value: string, parse: (value: string) => Dayjs | null) {
  const [last, setLast] = useState<{ value: string; picked: Dayjs | null } | null>(null);
  const shown = last && last.value === value ? last.picked : parse(value);
  return [shown, (picked: Dayjs | null, handed: string) => setLast({ value: handed, picked })] as const;
}

function textField({ id, error, helperText, required, size, fullWidth, sx, inputRef, onBlur }: FieldProps) {
  return { id, error, helperText, required, size, fullWidth, sx, inputRef, onBlur };
}

/**
 * A calendar date ("YYYY-MM-DD", "" for none). The calendar marks today as the company's today (its
 * time zone), which is the day the company's figures count as today.
 */
export function DateField({
  value,
  onChange,
  minDate,
  maxDate,
  ...field
}: FieldProps & {
  value: string;
  /** The day picked, or "" while none (or only part of one) is typed. */
  onChange(value: string): void;
  minDate?: string;
  maxDate?: string;
}) {
  const zone = displayTimeZone();
  const day = (text: string | undefined) => (text ? dayjs.tz(text, zone) : undefined);
  const [shown, keep] = usePicked(value, (v) => (v ? dayjs.tz(v, zone) : null));
  return (
    <PickersLanguage>
      <DatePicker
        label={field.label}
        value={shown}
        timezone={zone}
        minDate={day(minDate)}
        maxDate={day(maxDate)}
        disabled={field.disabled}
        onChange={(picked: Dayjs | null) => {
          const handed = picked?.isValid() ? picked.tz(zone).format("YYYY-MM-DD") : "";
          keep(picked, handed);
          onChange(handed);
        }}
        slotProps={{ textField: textField(field) }}
      />
    </PickersLanguage>
  );
}

/**
 * An instant, shown and typed on the company's clock. `value` is an ISO timestamp ("" for none);
 * `onChange` gives one back, "" when emptied, or "invalid" while what is typed is no date yet.
 */
export function DateTimeField({
  value,
  onChange,
  ...field
}: FieldProps & { value: string; onChange(value: string): void }) {
  const zone = displayTimeZone();
  const [shown, keep] = usePicked(value, (v) => {
    const parsed = v && v !== "invalid" ? dayjs(v).tz(zone) : null;
    return parsed?.isValid() ? parsed : null;
  });
  return (
    <PickersLanguage>
      <DateTimePicker
        label={field.label}
        value={shown}
        timezone={zone}
        disabled={field.disabled}
        onChange={(picked: Dayjs | null) => {
          const handed = !picked ? "" : picked.isValid() ? picked.toISOString() : "invalid";
          keep(picked, handed);
          onChange(handed);
        }}
        slotProps={{ textField: textField(field) }}
      />
    </PickersLanguage>
  );
}

/** An instant at a wall-clock time of a calendar day ("YYYY-MM-DD", 9:00) on the company's clock. */
export function atCompanyTime(day: string, hour: number, minute = 0): string {
  return dayjs
    .tz(`${day} ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`, displayTimeZone())
    .toISOString();
}
