import type { Recurrence } from "./companies.js";
import { DEFAULT_TIMEZONE, RECURRENCES } from "./constants.js";
import { daysBetween, todayInZone } from "./dates.js";

/** How far the 'Vencimento' action moves a company's due date, per recurrence (back-office §4). */
export const RECURRENCE_MONTHS: Record<Recurrence, number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};

/** A row of the Empresas tab turns yellow this many days or fewer before its due date. */
export const DUE_SOON_DAYS = 5;

function isRecurrence(value: string): value is Recurrence {
  return (RECURRENCES as readonly string[]).includes(value);
}

/**
 * A YYYY-MM-DD date `months` later, kept inside the target month: Jan 31 + 1 month is Feb 28 (29
 * in a leap year), not March 3, so a monthly company never drifts into the next month.
 */
export function addMonthsToDate(date: string, months: number): string {
  const [y, m, d] = date.slice(0, 10).split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d, lastDay);
  return `${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * The 'Vencimento' action: the due date moved forward by the company's recurrence (an unknown
 * recurrence counts as MENSAL). A company without a due date starts from `today`.
 */
export function advanceDueDate(dueDate: string | null, recurrence: string, today: string): string {
  const months = RECURRENCE_MONTHS[isRecurrence(recurrence) ? recurrence : "MENSAL"];
  const base = dueDate && /^\d{4}-\d{2}-\d{2}/.test(dueDate) ? dueDate.slice(0, 10) : today;
  return addMonthsToDate(base, months);
}

/** How a company's row shows its due date: past or today red ("overdue"), within 5 days yellow ("soon"). */
export type DueTone = "overdue" | "soon" | null;

export function dueDateTone(dueDate: string | null, today: string): DueTone {
  if (!dueDate || !/^\d{4}-\d{2}-\d{2}/.test(dueDate)) return null;
  const days = daysBetween(today, dueDate.slice(0, 10));
  if (days <= 0) return "overdue";
  if (days <= DUE_SOON_DAYS) return "soon";
  return null;
}

/**
 * Days of trial left after today, or null when the company is not in trial (no trial expiration,
 * or one already past). The expiration is the trial's last day (YYYY-MM-DD, counted in the
 * company's time zone): on that day 0 remain. A timestamp counts whole days, rounded up.
 */
export function trialDaysLeft(
  trialExpiration: string | null | undefined,
  now: Date,
  timeZone: string = DEFAULT_TIMEZONE,
): number | null {
  if (!trialExpiration) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(trialExpiration)) {
    const days = daysBetween(todayInZone(now, timeZone), trialExpiration);
    return Number.isNaN(days) || days < 0 ? null : days;
  }
  const end = Date.parse(trialExpiration);
  if (Number.isNaN(end) || end <= now.getTime()) return null;
  return Math.ceil((end - now.getTime()) / 86_400_000);
}
