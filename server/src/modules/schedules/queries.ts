import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { SCHEDULE, type ScheduleDTO, type ScheduleStatus, type SchedulesPage } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { contacts, jobs, messages, schedules, tickets, users, whatsapps } from "../../db/schema/index.js";
import { type ScheduleRow, presentSchedule } from "./present.js";

/** Every helper takes the caller's companyId first: a schedule of another company is simply not found. */

export const SEND_SCHEDULE_JOB = "send-schedule";
export const SETTLE_SCHEDULE_JOB = "settle-schedule";

function joined(db: Executor) {
  return db
    .select({
      schedule: schedules,
      contact: {
        id: contacts.id,
        name: contacts.name,
        number: contacts.number,
        profilePicUrl: contacts.profilePicUrl,
      },
      userName: users.name,
      whatsappName: whatsapps.name,
      ticketUuid: tickets.uuid,
    })
    .from(schedules)
    .innerJoin(contacts, eq(contacts.id, schedules.contactId))
    .leftJoin(users, eq(users.id, schedules.userId))
    .leftJoin(whatsapps, eq(whatsapps.id, schedules.whatsappId))
    .leftJoin(tickets, eq(tickets.id, schedules.ticketId));
}

export async function findScheduleRow(
  db: Executor,
  companyId: number,
  id: number,
): Promise<ScheduleRow | null> {
  const [row] = await db
    .select()
    .from(schedules)
    .where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)));
  return row ?? null;
}

/** The row, held until the transaction ends: the sender and an edit never cross. */
export async function lockScheduleRow(
  tx: Executor,
  companyId: number,
  id: number,
): Promise<ScheduleRow | null> {
  const [row] = await tx
    .select()
    .from(schedules)
    .where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)))
    .for("update");
  return row ?? null;
}

export async function findSchedule(db: Executor, companyId: number, id: number): Promise<ScheduleDTO | null> {
  const [row] = await joined(db).where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)));
  return row ? presentSchedule(row) : null;
}

export interface ScheduleFilters {
  searchParam: string;
  contactId?: number;
  status?: ScheduleStatus;
  from?: Date;
  to?: Date;
}

function filtersOf(companyId: number, f: ScheduleFilters): SQL {
  const parts: (SQL | undefined)[] = [eq(schedules.companyId, companyId)];
  if (f.searchParam) {
    const term = `%${f.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(or(ilike(contacts.name, term), ilike(contacts.number, term), ilike(schedules.body, term)));
  }
  if (f.contactId) parts.push(eq(schedules.contactId, f.contactId));
  if (f.status) parts.push(eq(schedules.status, f.status));
  if (f.from) parts.push(gte(schedules.sendAt, f.from));
  if (f.to) parts.push(lt(schedules.sendAt, f.to));
  return and(...parts)!;
}

/**
 * The schedules list, latest send time first, a page at a time; with a date range (the calendar's
 * month) every schedule in it at once, in time order.
 */
export async function pageSchedules(
  db: Executor,
  companyId: number,
  filters: ScheduleFilters,
  page: { pageNumber: number; pageSize: number },
): Promise<SchedulesPage> {
  const where = filtersOf(companyId, filters);
  const [total] = await db
    .select({ n: count() })
    .from(schedules)
    .innerJoin(contacts, eq(contacts.id, schedules.contactId))
    .where(where);
  const ranged = filters.from !== undefined || filters.to !== undefined;
  const pageSize = ranged ? SCHEDULE.rangeMax : page.pageSize;
  const pageNumber = ranged ? 1 : page.pageNumber;
  const rows = await joined(db)
    .where(where)
    .orderBy(
      ...(ranged ? [asc(schedules.sendAt), asc(schedules.id)] : [desc(schedules.sendAt), desc(schedules.id)]),
    )
    .limit(pageSize)
    .offset((pageNumber - 1) * pageSize);
  const n = Number(total?.n ?? 0);
  return { schedules: rows.map(presentSchedule), count: n, hasMore: pageNumber * pageSize < n };
}

/** Schedules still waiting for their time (the plan's limit counts these). */
export async function countPending(db: Executor, companyId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(schedules)
    .where(and(eq(schedules.companyId, companyId), eq(schedules.status, "PENDENTE")));
  return Number(row?.n ?? 0);
}

/** The schedule handed to the connection as this message and not known as sent yet, if any. */
export async function scheduleOfMessage(
  db: Executor,
  companyId: number,
  messageId: number,
): Promise<ScheduleRow | null> {
  const [row] = await db
    .select()
    .from(schedules)
    .where(
      and(
        eq(schedules.companyId, companyId),
        eq(schedules.messageId, messageId),
        inArray(schedules.status, ["AGENDADA", "ERRO"]),
      ),
    );
  return row ?? null;
}

/** Drops the schedule's jobs that have not started: an edit queues a new one for the new time. */
export async function dropPendingJobs(tx: Executor, companyId: number, scheduleId: number): Promise<void> {
  await tx
    .delete(jobs)
    .where(
      and(
        eq(jobs.companyId, companyId),
        inArray(jobs.type, [SEND_SCHEDULE_JOB]),
        eq(jobs.status, "pending"),
        sql`${jobs.payload}->>'scheduleId' = ${String(scheduleId)}`,
      ),
    );
}

export async function contactExists(db: Executor, companyId: number, contactId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)));
  return row !== undefined;
}

export async function connectionExists(
  db: Executor,
  companyId: number,
  whatsappId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)));
  return row !== undefined;
}

/** The connection a schedule goes through: its own, else the company's default. */
export async function sendingConnection(
  db: Executor,
  companyId: number,
  whatsappId: number | null,
): Promise<{ id: number; status: string; provider: string } | null> {
  const [row] = await db
    .select({ id: whatsapps.id, status: whatsapps.status, provider: whatsapps.provider })
    .from(whatsapps)
    .where(
      and(
        eq(whatsapps.companyId, companyId),
        whatsappId === null ? eq(whatsapps.isDefault, true) : eq(whatsapps.id, whatsappId),
      ),
    );
  return row ?? null;
}

export async function insertSchedule(
  tx: Executor,
  companyId: number,
  values: Omit<typeof schedules.$inferInsert, "companyId">,
): Promise<number> {
  const [row] = await tx
    .insert(schedules)
    .values({ ...values, companyId })
    .returning({ id: schedules.id });
  return row!.id;
}

/** Null when the company has no such schedule. */
export async function updateSchedule(
  tx: Executor,
  companyId: number,
  id: number,
  patch: Partial<typeof schedules.$inferInsert>,
): Promise<ScheduleRow | null> {
  const [row] = await tx
    .update(schedules)
    .set(patch)
    .where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)))
    .returning();
  return row ?? null;
}

/** Whether a schedule was deleted. */
export async function deleteSchedule(tx: Executor, companyId: number, id: number): Promise<boolean> {
  const gone = await tx
    .delete(schedules)
    .where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)))
    .returning({ id: schedules.id });
  return gone.length > 0;
}

/** The schedule's author, while still a user of the company. */
export async function findAuthorId(db: Executor, companyId: number, userId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  return row?.id ?? null;
}

/** How the schedule's message fared: taken (ack), failed, or deleted. */
export async function messageOutcome(
  db: Executor,
  companyId: number,
  messageId: number,
): Promise<{ ack: number; sendError: string | null; isDeleted: boolean } | null> {
  const [row] = await db
    .select({ ack: messages.ack, sendError: messages.sendError, isDeleted: messages.isDeleted })
    .from(messages)
    .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId)));
  return row ?? null;
}
