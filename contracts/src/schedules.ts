import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { zoneOffsetMs } from "./dates.js";
import { MAX_DB_ID, idOf, idValue, noNul, pageNumber, searchText } from "./validation.js";
import { type Actor, can } from "./permissions.js";

/**
 * PENDENTE: waiting for its time; AGENDADA: handed to the connection, on its way; ENVIADA: WhatsApp
 * took it (sentAt set); ERRO: it could not be sent (`error` says why; shown as 'Erro de Envio').
 */
export const SCHEDULE_STATUSES = ["PENDENTE", "AGENDADA", "ENVIADA", "ERRO"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** A schedule as every answer and the `company-{id}-schedule` event carry it. */
export const scheduleSchema = z
  .object({
    id: rowId,
    body: z.string(),
    contactId: rowId,
    /** The contact it goes to: a few of its fields (the whole contact is the Contact component). */
    contact: z.object({ id: rowId, name: z.string(), number: z.string(), profilePicUrl: z.string() }),
    userId: rowId.nullable(),
    user: z.object({ id: rowId, name: z.string() }).nullable(),
    /** The connection it goes through; null: the company's default connection. */
    whatsappId: rowId.nullable(),
    whatsapp: z.object({ id: rowId, name: z.string() }).nullable(),
    sendAt: timestamp,
    sentAt: timestamp.nullable(),
    status: z.enum(SCHEDULE_STATUSES),
    /** Why it was not sent (status ERRO): an ERR_* code, optionally followed by ": " and details. */
    error: z.string().nullable(),
    /** The ticket the message went to, once queued. */
    ticket: z.object({ id: rowId, uuid: z.string() }).nullable(),
    mediaPath: z.string().nullable(),
    mediaName: z.string().nullable(),
    mediaUrl: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Schedule", description: "A message scheduled to a contact, and where its sending stands" });
export type ScheduleDTO = z.infer<typeof scheduleSchema>;

/** GET /schedules: a page of the list, or every schedule of the calendar's range (`from`, `to`). */
export const schedulesPageSchema = pageOf("schedules", scheduleSchema).meta({
  id: "SchedulesPage",
  description: "A page of the company's schedules, or those of a range",
});
export type SchedulesPage = z.infer<typeof schedulesPageSchema>;

export const SCHEDULE = {
  bodyMin: 5,
  bodyMax: 10_000,
  /** The form's default send time: one hour ahead. */
  defaultLeadMs: 60 * 60_000,
  /** Attachments: png, jpg, jpeg. */
  mediaTypes: ["image/png", "image/jpeg"],
  mediaAccept: ".png,.jpg,.jpeg,image/png,image/jpeg",
  /** The calendar asks for one month at a time; more than this in one range is cut. */
  rangeMax: 1000,
} as const;

/** Once it left PENDENTE (or failed), a schedule can no longer be saved. */
export function isScheduleEditable(s: Pick<ScheduleDTO, "status" | "sentAt">): boolean {
  return s.sentAt === null && (s.status === "PENDENTE" || s.status === "ERRO");
}

/** Body: required ('Obrigatório'), at least 5 characters ('Mensagem muito curta'). */
export const scheduleBodyField = z
  .string({ error: "validation.obrigatorio" })
  .trim()
  .min(1, { error: "validation.obrigatorio", abort: true })
  .min(SCHEDULE.bodyMin, "validation.messageTooShort")
  .max(SCHEDULE.bodyMax, "validation.tooLong")
  .refine(noNul, "validation.invalid");

/** An ISO date-time with a zone (Z or ±hh:mm), or a local one (no zone) read in the company's zone. */
const SEND_AT =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export const scheduleSendAtField = z
  .string({ error: "validation.obrigatorio" })
  .trim()
  .min(1, { error: "validation.obrigatorio", abort: true })
  .refine((v) => {
    const m = SEND_AT.exec(v);
    if (!m) return false;
    const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(
      Number,
    ) as number[];
    const date = new Date(Date.UTC(year!, month! - 1, day!));
    // A date that exists (no 31st of February), and a time of day.
    return (
      date.getUTCMonth() === month! - 1 &&
      date.getUTCDate() === day &&
      hour! <= 23 &&
      minute! <= 59 &&
      second! <= 59
    );
  }, "validation.invalid");

/** The contact: required ('Obrigatório'). */
const contactIdField = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  idOf(MAX_DB_ID, "validation.obrigatorio"),
);

const whatsappIdField = z.preprocess((v) => (v === "" ? null : v), idValue.nullable());

export const scheduleCreateSchema = z.object({
  body: scheduleBodyField,
  contactId: contactIdField,
  sendAt: scheduleSendAtField,
  whatsappId: whatsappIdField.optional(),
});
export type ScheduleCreateInput = z.infer<typeof scheduleCreateSchema>;

export const scheduleUpdateSchema = z.object({
  body: scheduleBodyField.optional(),
  contactId: contactIdField.optional(),
  sendAt: scheduleSendAtField.optional(),
  whatsappId: whatsappIdField.optional(),
});
export type ScheduleUpdateInput = z.infer<typeof scheduleUpdateSchema>;

const isoInstant = z
  .string("validation.invalid")
  .trim()
  .refine((v) => SEND_AT.test(v), "validation.invalid");

/**
 * GET /schedules: a page of the list (search on the contact's name or number and the body), or,
 * with `from` and `to`, every schedule in that range (the calendar's month).
 */
export const schedulesQuerySchema = z.object({
  searchParam: searchText(100),
  pageNumber,
  contactId: idValue.optional(),
  status: z.enum(SCHEDULE_STATUSES, "validation.invalid").optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
});
export type SchedulesQuery = z.infer<typeof schedulesQuerySchema>;

/** Minutes to add to UTC to get the wall clock of `timeZone` at `at`. */
const zoneOffsetMinutes = (at: number, timeZone: string) => Math.round(zoneOffsetMs(at, timeZone) / 60_000);

/** The instant a sendAt names: as given when it carries a zone, else as a wall clock in `timeZone`. */
export function parseSendAt(value: string, timeZone: string): Date {
  const m = SEND_AT.exec(value.trim());
  if (!m) return new Date(Number.NaN);
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as number[];
  const ms = Number((m[7] ?? "0").padEnd(3, "0").slice(0, 3));
  const wall = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, ms);
  const zone = m[8]?.toUpperCase();
  if (zone === "Z") return new Date(wall);
  if (zone) {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    return new Date(wall - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000);
  }
  // The offset at the guessed instant, checked again at the result (a DST change between them).
  let at = wall - zoneOffsetMinutes(wall, timeZone) * 60_000;
  at = wall - zoneOffsetMinutes(at, timeZone) * 60_000;
  return new Date(at);
}

/** Its author edits or deletes a schedule; admin and supervisor any (schedules:editAny). */
export function mayEditSchedule(actor: Actor, actorId: number, schedule: { userId: number | null }): boolean {
  return schedule.userId === actorId || can(actor, "schedules:editAny");
}
