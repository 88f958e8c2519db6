import { DEFAULT_TIMEZONE } from "./constants.js";

/** Today's calendar date (YYYY-MM-DD) in a time zone, whatever the machine's own zone is. */
export function todayInZone(now: Date, timeZone: string = DEFAULT_TIMEZONE): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone: making one costs far more than using it (the service levels' calendar asks per day). */
function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/**
 * Milliseconds to add to UTC to get the wall clock of `timeZone` at `instant` (daylight saving
 * included): the zone's wall clock read as UTC, minus the instant (to the second).
 */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const p = Object.fromEntries(
    zoneFormatter(timeZone)
      .formatToParts(new Date(instant))
      .map((x) => [x.type, x.value]),
  );
  const wall = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Whole days from `from` to `to`, both YYYY-MM-DD; negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** dd/MM/yyyy for a YYYY-MM-DD date or an ISO timestamp (its calendar date as written). */
export function formatDateBR(isoDate: string): string {
  const [y, m, d] = isoDate.slice(0, 10).split("-");
  return `${d}/${m}/${y}`;
}
