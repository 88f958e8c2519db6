import { type ScheduleEntry, minutesOfDay, scheduleWeek, zoneOffsetMs } from "@atende/contracts";

/**
 * The working-time calendar of service levels (issue 39): a target counts only the time within
 * opening hours, in the company's time zone. Pure functions; the hours in use are picked by
 * `calendarOf` (the queue's, the company's, or round the clock).
 */

/** Opening hours in a time zone, or null: round the clock (every minute counts). */
export type WorkingCalendar = { week: ScheduleEntry[]; timeZone: string } | null;

/**
 * The hours a queue's targets count in: the queue's when the company's `scheduleType` is "queue",
 * the company's when it is "company", round the clock otherwise ("disabled", unset). A week with no
 * open minute at all counts round the clock too (a target must fall due some day).
 */
export function calendarOf(
  scheduleType: string | undefined,
  hours: { queue: readonly ScheduleEntry[] | undefined; company: readonly ScheduleEntry[] | undefined },
  timeZone: string,
): WorkingCalendar {
  const stored = scheduleType === "queue" ? hours.queue : scheduleType === "company" ? hours.company : null;
  if (stored === null) return null;
  const week = scheduleWeek(stored);
  return week.some((day) => minutesOfDay(day.startTime) < minutesOfDay(day.endTime))
    ? { week, timeZone }
    : null;
}

const DAY_MS = 86_400_000;
/** How far a target may reach (a 90-day target on one open hour a week is ~30 years: refused). */
const MAX_DAYS = 3660;

/** The wall clock of `ms` in `timeZone`, as if it were UTC (so its difference to `ms` is the offset). */
const wallClock = (ms: number, timeZone: string) => ms + zoneOffsetMs(ms, timeZone);

/** The local day (as a UTC midnight) that `ms` falls on in `timeZone`. */
function localDay(ms: number, timeZone: string): number {
  const wall = wallClock(ms, timeZone);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

/**
 * The instant of a local wall time (`day` a UTC midnight, plus `minutes`) in `timeZone`. A time
 * skipped by a DST change is read with the offset before it (it falls an hour later); a repeated
 * one is its first occurrence.
 */
function instantOf(day: number, minutes: number, timeZone: string): number {
  const wall = day + minutes * 60_000;
  const guess = wall - (wallClock(wall, timeZone) - wall);
  return wall - (wallClock(guess, timeZone) - guess);
}

/** The open interval of a local day, as instants; null when closed that day. */
function openingOn(day: number, cal: NonNullable<WorkingCalendar>): [number, number] | null {
  // WEEKDAYS (and scheduleWeek) start on monday; getUTCDay() on sunday.
  const entry = cal.week[(new Date(day).getUTCDay() + 6) % 7];
  if (!entry) return null;
  const start = minutesOfDay(entry.startTime);
  const end = minutesOfDay(entry.endTime);
  if (start >= end) return null;
  return [instantOf(day, start, cal.timeZone), instantOf(day, end, cal.timeZone)];
}

/** The instant `minutes` working minutes after `from` (at the very close of a day when it ends there). */
export function addWorkingMinutes(from: Date, minutes: number, cal: WorkingCalendar): Date {
  return addWorkingMs(from, minutes * 60_000, cal);
}

/** The instant `ms` working milliseconds after `from`. */
export function addWorkingMs(from: Date, ms: number, cal: WorkingCalendar): Date {
  const start = from.getTime();
  if (cal === null) return new Date(start + ms);
  let left = ms;
  let cursor = start;
  let day = localDay(start, cal.timeZone);
  for (let i = 0; i < MAX_DAYS; i++, day += DAY_MS) {
    const open = openingOn(day, cal);
    if (!open || open[1] <= cursor) continue;
    const from_ = Math.max(open[0], cursor);
    const available = open[1] - from_;
    // Ending exactly at the close: due at the close (not at the next opening).
    if (left <= available) return new Date(from_ + left);
    left -= available;
    cursor = open[1];
  }
  return new Date(start + ms); // no opening within reach: round the clock
}

/** The working milliseconds between two instants (0 when `to` is not after `from`). */
export function workingMsBetween(from: Date, to: Date, cal: WorkingCalendar): number {
  const a = from.getTime();
  const b = to.getTime();
  if (b <= a) return 0;
  if (cal === null) return b - a;
  let total = 0;
  const last = localDay(b, cal.timeZone);
  for (let day = localDay(a, cal.timeZone), i = 0; day <= last && i < MAX_DAYS; day += DAY_MS, i++) {
    const open = openingOn(day, cal);
    if (!open) continue;
    const overlap = Math.min(open[1], b) - Math.max(open[0], a);
    if (overlap > 0) total += overlap;
  }
  return total;
}

/** The working seconds between two instants, rounded down. */
export function workingSecondsBetween(from: Date, to: Date, cal: WorkingCalendar): number {
  return Math.floor(workingMsBetween(from, to, cal) / 1000);
}
