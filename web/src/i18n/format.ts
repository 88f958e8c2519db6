/** Dates as dd/MM/yyyy and times as HH:mm, in the browser's time zone. */

/** The BCP 47 tag of a UI language, for Intl (month and weekday names, number marks). */
const LOCALE_TAGS = { pt: "pt-BR", en: "en-US", es: "es-ES" } as const;

/** The locale of the chosen language ("pt", "en", "es", or a longer tag), Brazilian Portuguese by default. */
export function localeTag(language: string | undefined): string {
  const base = (language ?? "").slice(0, 2).toLowerCase();
  return base in LOCALE_TAGS ? LOCALE_TAGS[base as keyof typeof LOCALE_TAGS] : LOCALE_TAGS.pt;
}
// A bare calendar date, or one sent as UTC midnight (how a date column often travels as JSON).
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})(?:T00:00:00(?:\.0+)?Z)?$/;

const pad = (n: number) => String(n).padStart(2, "0");

function toDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return "";
  // A calendar date (a due date) is not an instant: converting it to local time would shift the day.
  const calendar = typeof value === "string" ? DATE_ONLY.exec(value) : null;
  if (calendar) return `${calendar[3]}/${calendar[2]}/${calendar[1]}`;
  const date = toDate(value);
  return date ? `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}` : "";
}

export function formatTime(value: string | Date | null | undefined): string {
  const date = value ? toDate(value) : null;
  return date ? `${pad(date.getHours())}:${pad(date.getMinutes())}` : "";
}

/**
 * A duration given in minutes as people read it: "12,5 min" under an hour, "2 h 05 min" above,
 * "—" when there is nothing to average. `locale` picks the decimal mark.
 */
export function formatMinutes(minutes: number | null | undefined, locale: string): string {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes)) return "—";
  if (minutes < 60) {
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(minutes)} min`;
  }
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  return `${new Intl.NumberFormat(locale).format(hours)} h ${pad(whole % 60)} min`;
}

/** An amount in Brazilian reais (R$ 59,90), whatever the language; `locale` picks the marks. */
export function formatBRL(value: number | string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency: "BRL" }).format(Number(value));
}
