import { z } from "zod";
import type { PlanDTO, QueueDTO } from "./entities.js";
import { dbId, idValue, noNul, sizedText } from "./validation.js";

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
export interface ScheduleEntry {
  weekday: string;
  weekdayEn: WeekdayEn;
  startTime: string;
  endTime: string;
}

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

/** PUT /companies/{id}/schedules. */
export const companySchedulesSchema = z.object({ schedules: schedulesField });
export type CompanySchedulesInput = z.infer<typeof companySchedulesSchema>;

export interface CompanySchedulesDTO {
  id: number;
  schedules: ScheduleEntry[];
}

/** The company as GET /companies/{id} answers it to its own admin. */
export interface CompanyDTO {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  planId: number | null;
  status: boolean;
  dueDate: string | null;
  recurrence: string;
  schedules: ScheduleEntry[];
  createdAt: string;
}

/**
 * GET /companies/listPlan/{companyId}: the company with its plan, as clients of this API family
 * read it to build their menu. A company without a plan gets a stand-in as the server enforces it:
 * `id` and `name` null, limits 0 (no limit), every feature off.
 */
export interface CompanyPlanDTO {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  status: boolean;
  dueDate: string | null;
  createdAt: string;
  plan: Omit<PlanDTO, "id" | "name"> & { id: number | null; name: string | null };
}

/** A queue as its page, its dialog and the `company-{id}-queue` event carry it. */
export interface QueueDetailDTO extends QueueDTO {
  orderQueue: number | null;
  greetingMessage: string;
  outOfHoursMessage: string;
  integrationId: number | null;
  promptId: number | null;
  schedules: ScheduleEntry[];
  /** The attachment sent with the greeting: a media path ("{companyId}/{file}") and its original name. */
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One entry of a queue's chatbot menu; `children` is its own sub-menu, in option order. */
export interface QueueOptionDTO {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  /** The number the customer types to choose it. */
  option: number;
  mediaPath: string | null;
  mediaName: string | null;
  children: QueueOptionDTO[];
  createdAt: string;
  updatedAt: string;
}

export const QUEUE_LIMITS = {
  name: { min: 2, max: 50 },
  color: { min: 3, max: 9 },
  message: 4096,
  optionTitle: 100,
  /** Options of one queue, all levels together. */
  optionsPerQueue: 300,
  /** Levels of sub-menus below a queue's first menu. */
  optionDepth: 10,
  orderQueue: 9999,
} as const;

const longText = z
  .string("validation.invalid")
  .max(QUEUE_LIMITS.message, "validation.tooLong")
  .refine(noNul, "validation.invalid");

/** Colour: required, 3 to 9 characters (spec section 5), and a CSS colour: a hex code or a name. */
export const queueColorField = sizedText(QUEUE_LIMITS.color.min, QUEUE_LIMITS.color.max)
  .pipe(z.string().regex(/^(#[0-9a-f]{3,8}|[a-z]+)$/i, "validation.invalid"))
  .transform((v) => v.toLowerCase());

const orderQueueField = z.preprocess(
  (v) => (v === "" ? null : v),
  z.coerce
    .number("validation.invalid")
    .int("validation.invalid")
    .min(0, "validation.invalid")
    .max(QUEUE_LIMITS.orderQueue, "validation.invalid")
    .nullable(),
);

/** POST /queue and PUT /queue/{id}. On update, fields left out keep their saved values. */
export const queueSaveSchema = z.object({
  name: sizedText(QUEUE_LIMITS.name.min, QUEUE_LIMITS.name.max),
  color: queueColorField,
  greetingMessage: longText.optional(),
  outOfHoursMessage: longText.optional(),
  orderQueue: orderQueueField.optional(),
  integrationId: dbId.nullable().optional(),
  promptId: dbId.nullable().optional(),
  schedules: schedulesField.optional(),
});
export type QueueSaveInput = z.infer<typeof queueSaveSchema>;

/** A query id that may come as "-1" or "null": the clients of this API family say "no parent" that way. */
const parentQuery = z.preprocess(
  (v) => (v === undefined || v === "" ? undefined : v === "null" || v === "-1" || v === -1 ? null : v),
  idValue.nullable().optional(),
);

/** GET /queue-options: the options of one queue; `parentId` -1 (or null) answers its first menu. */
export const queueOptionsQuerySchema = z.object({
  queueId: idValue,
  parentId: parentQuery,
});
export type QueueOptionsQuery = z.infer<typeof queueOptionsQuerySchema>;

const optionTitle = sizedText(1, QUEUE_LIMITS.optionTitle);
const optionNumber = z.coerce
  .number("validation.invalid")
  .int("validation.invalid")
  .min(0, "validation.invalid")
  .max(999, "validation.invalid");

/** POST /queue-options: a new option under a queue, or under another option of the same queue. */
export const queueOptionCreateSchema = z.object({
  queueId: idValue,
  parentId: parentQuery,
  title: optionTitle,
  message: longText.default(""),
  /** Left out: the next number after its siblings'. */
  option: optionNumber.optional(),
});
export type QueueOptionCreateInput = z.infer<typeof queueOptionCreateSchema>;

/** PUT /queue-options/{id}: the option's text and number; it stays where it is in the tree. */
export const queueOptionUpdateSchema = z.object({
  title: optionTitle.optional(),
  message: longText.optional(),
  option: optionNumber.optional(),
});
export type QueueOptionUpdateInput = z.infer<typeof queueOptionUpdateSchema>;

/** Spaces in a media name become underscores (spec section 5), and the name stays short. */
export function mediaNameOf(filename: string): string {
  const clean = [...filename]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c !== "/" && c !== "\\")
    .join("")
    .trim()
    .replace(/\s+/g, "_");
  return (clean || "arquivo").slice(-200);
}

/**
 * The one queue order (the bot's menu numbering, every list and select): orderQueue with the
 * unnumbered last, then name as the database orders it (by code point), then id.
 */
export function compareQueues(
  a: { id: number; name: string; orderQueue: number | null },
  b: { id: number; name: string; orderQueue: number | null },
): number {
  const order = (q: { orderQueue: number | null }) => q.orderQueue ?? Number.MAX_SAFE_INTEGER;
  const byName = a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  return order(a) - order(b) || byName || a.id - b.id;
}
