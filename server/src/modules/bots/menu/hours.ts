import { type ScheduleEntry, WEEKDAYS, minutesOfDay, scheduleWeek } from "@atende/contracts";

/** The weekday (monday…) and minutes since midnight of `at` in `timeZone`, and its local date. */
export function localTime(at: Date, timeZone: string): { weekday: number; minutes: number; date: string } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const weekday = WEEKDAYS.findIndex(([, en]) => en === get("weekday").toLowerCase());
  const hour = Number(get("hour")) % 24;
  return {
    weekday,
    minutes: hour * 60 + Number(get("minute")),
    date: `${get("year")}-${get("month")}-${get("day")}`,
  };
}

/**
 * Whether `at` falls outside the opening hours in the company's time zone; when it does, `period`
 * names the closed period (the local day and time it next opens), so a message is sent once per period.
 */
export function outOfHours(
  schedules: readonly ScheduleEntry[] | undefined,
  at: Date,
  timeZone: string,
): { closed: false } | { closed: true; period: string } {
  const week = scheduleWeek(schedules);
  const now = localTime(at, timeZone);
  const today = week[now.weekday];
  if (today) {
    const start = minutesOfDay(today.startTime);
    const end = minutesOfDay(today.endTime);
    if (start < end && now.minutes >= start && now.minutes < end) return { closed: false };
  }
  // The next opening: later today, or the first open day after it (within a week).
  for (let ahead = 0; ahead <= 7; ahead++) {
    const day = week[(now.weekday + ahead) % 7];
    if (!day) continue;
    const start = minutesOfDay(day.startTime);
    if (start >= minutesOfDay(day.endTime)) continue;
    if (ahead === 0 && now.minutes >= start) continue;
    const opens = new Date(at.getTime() + (ahead * 1440 + start - now.minutes) * 60_000);
    return { closed: true, period: `${localTime(opens, timeZone).date} ${day.startTime}` };
  }
  return { closed: true, period: "never" };
}
