import { z } from "zod";

/** Monday to Sunday: the stored `weekday` is the Portuguese name, as the spec's data has it. */
export const WEEKDAYS = [
  ["Segunda-feira", "monday"],
  ["Terça-feira", "tuesday"],
  ["Quarta-feira", "wednesday"],
  ["Quinta-feira", "thursday"],
  ["Sexta-feira", "friday"],
  ["Sábado", "saturday"],
  ["Domingo", "sunday"],
] as const;
export type WeekdayEn = (typeof WEEKDAYS)[number][1];
const WEEKDAY_KEYS = WEEKDAYS.map(([, en]) => en) as [WeekdayEn, ...WeekdayEn[]];

/**
 * One day of opening hours (a queue's or a company's). A day whose start equals its end
 * (00:00 to 00:00) is closed; a weekday missing from a list is closed too.
 */
export const openingHoursDaySchema = z
  .object({
    /** The weekday's Portuguese name ("Segunda-feira"...). */
    weekday: z.string(),
    weekdayEn: z.enum(WEEKDAY_KEYS),
    /** ##:## (00:00 to 23:59), as are all times of day. */
    startTime: z.string(),
    endTime: z.string(),
  })
  .meta({
    id: "OpeningHoursDay",
    description: "One weekday's opening hours; a day from 00:00 to 00:00 is closed",
  });
export type ScheduleEntry = z.infer<typeof openingHoursDaySchema>;

function defaultHours(weekdayEn: WeekdayEn): [string, string] {
  if (weekdayEn === "saturday") return ["08:00", "12:00"];
  if (weekdayEn === "sunday") return ["00:00", "00:00"];
  return ["08:00", "18:00"];
}

/** The spec's default hours (section 9): Mon to Fri 08:00 to 18:00, Sat 08:00 to 12:00, Sun closed. */
export const DEFAULT_SCHEDULES: readonly ScheduleEntry[] = WEEKDAYS.map(([weekday, weekdayEn]) => {
  const [startTime, endTime] = defaultHours(weekdayEn);
  return { weekday, weekdayEn, startTime, endTime };
});

/**
 * Seven rows in week order: the stored ones where present, closed days for the missing ones; the
 * spec's default hours when nothing was ever stored.
 */
export function scheduleWeek(stored: readonly ScheduleEntry[] | undefined): ScheduleEntry[] {
  if (!stored) return DEFAULT_SCHEDULES.map((entry) => ({ ...entry }));
  return WEEKDAYS.map(([weekday, weekdayEn]) => {
    const found = stored.find((entry) => entry.weekdayEn === weekdayEn);
    return found ? { ...found, weekday } : { weekday, weekdayEn, startTime: "00:00", endTime: "00:00" };
  });
}

/** Minutes since midnight of a time of day written ##:## ("08:30" → 510). */
export function minutesOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** A time of day written ##:## (00:00 to 23:59). */
export const timeOfDay = z
  .string("validation.invalidTime")
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "validation.invalidTime");

const scheduleEntrySchema = z
  .object({
    /** Optional on input: the server writes the Portuguese name from weekdayEn. */
    weekday: z.string().max(30).optional(),
    weekdayEn: z.enum(WEEKDAY_KEYS, "validation.invalid"),
    startTime: timeOfDay,
    endTime: timeOfDay,
  })
  .refine((v) => v.endTime >= v.startTime, { message: "validation.endBeforeStart", path: ["endTime"] })
  .transform((v): ScheduleEntry => ({
    weekday: WEEKDAYS.find(([, en]) => en === v.weekdayEn)![0],
    weekdayEn: v.weekdayEn,
    startTime: v.startTime,
    endTime: v.endTime,
  }));

/** A week of opening hours: each weekday at most once, written back in week order. */
export const schedulesField = z
  .array(scheduleEntrySchema, "validation.invalid")
  .max(7, "validation.invalid")
  .refine((list) => new Set(list.map((e) => e.weekdayEn)).size === list.length, "validation.invalid")
  .transform((list) =>
    [...list].sort((a, b) => WEEKDAY_KEYS.indexOf(a.weekdayEn) - WEEKDAY_KEYS.indexOf(b.weekdayEn)),
  );
