import { pickLang } from "@atende/contracts";
import i18n from "./index";

/**
 * Dates and times as the agent reads them: in the language chosen in the app (25/11/2026 14:30 in
 * Portuguese and Spanish, 11/25/2026 2:30 PM in English) and on the company's clock (its time zone
 * setting), whatever the browser's own language and zone. The zone is the session's company's
 * (AuthProvider sets it); logged out, the browser's.
 */

/** The BCP 47 tag of a UI language, for Intl (month and weekday names, number marks). */
const LOCALE_TAGS = { pt: "pt-BR", en: "en-US", es: "es-ES" } as const;

/** The locale of the chosen language ("pt", "en", "es", or a longer tag), Brazilian Portuguese by default. */
export function localeTag(language: string | undefined): string {
  const base = (language ?? "").slice(0, 2).toLowerCase();
  return base in LOCALE_TAGS ? LOCALE_TAGS[base as keyof typeof LOCALE_TAGS] : LOCALE_TAGS.pt;
}

let companyZone: string | undefined;

/** The clock dates are shown on: the company's time zone (undefined: the browser's). */
export function setDisplayTimeZone(zone: string | undefined): void {
  companyZone = zone || undefined;
}

/** The zone dates are shown in now: the company's, else the browser's. */
export function displayTimeZone(): string {
  return companyZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per language, zone and shape (building one costs more than formatting with it). */
function formatter(options: Intl.DateTimeFormatOptions, timeZone: string | undefined): Intl.DateTimeFormat {
  const locale = localeTag(pickLang(i18n.language));
  const key = `${locale}|${timeZone ?? ""}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formats.set(key, format);
  }
  return format;
}

const DATE: Intl.DateTimeFormatOptions = { day: "2-digit", month: "2-digit", year: "numeric" };
const TIME: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit" };

// A bare calendar date, or one sent as UTC midnight (how a date column often travels as JSON).
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})(?:T00:00:00(?:\.0+)?Z)?$/;

function toDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return "";
  // A calendar date (a due date) is not an instant: read in any other zone it could move a day.
  const calendar = typeof value === "string" ? DATE_ONLY.exec(value) : null;
  if (calendar) {
    const [, y, m, d] = calendar;
    return formatter(DATE, "UTC").format(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  }
  const date = toDate(value);
  return date ? formatter(DATE, companyZone).format(date) : "";
}

export function formatTime(value: string | Date | null | undefined): string {
  const date = value ? toDate(value) : null;
  return date ? formatter(TIME, companyZone).format(date) : "";
}

/** The calendar day (YYYY-MM-DD) an instant falls on, on the company's clock: "is it today?". */
export function dayOf(value: string | Date): string {
  const date = toDate(value);
  if (!date) return "";
  const parts = Object.fromEntries(
    formatter({ year: "numeric", month: "2-digit", day: "2-digit" }, companyZone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** A Date that stands for a calendar day (a calendar's cell, built from its local fields) as YYYY-MM-DD. */
export function calendarDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
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
  return `${new Intl.NumberFormat(locale).format(hours)} h ${String(whole % 60).padStart(2, "0")} min`;
}

/** An amount in Brazilian reais (R$ 59,90), whatever the language; `locale` picks the marks. */
export function formatBRL(value: number | string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency: "BRL" }).format(Number(value));
}
