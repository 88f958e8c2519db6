import { fileTypeFromBuffer } from "file-type";
import {
  DEFAULT_TIMEZONE,
  LIMITS,
  SCHEDULE,
  type ScheduleCreateInput,
  type ScheduleDTO,
  type ScheduleUpdateInput,
  type SchedulesPage,
  type SchedulesQuery,
  isScheduleEditable,
  mediaNameOf,
  parseSendAt,
  validationMessage,
  type Lang,
} from "@atende/contracts";
import type { Executor, Tx } from "../../db/client.js";
import type { schedules } from "../../db/schema/index.js";
import type { Deps } from "../../deps.js";
import { type Raise, inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { UploadedFile } from "../../http/upload.js";
import { type JobRunner, enqueueJob } from "../../jobs/runner.js";
import { requirePlanRoom } from "../plans/limits.js";
import { schedulePolicy } from "./policy.js";
import type { ScheduleRow } from "./present.js";
import { companyTimeZone } from "../settings/queries.js";
import * as q from "./queries.js";

export type SchedulesDeps = Pick<Deps, "db" | "bus" | "now" | "media"> & { jobs: Pick<JobRunner, "poke"> };

export function createSchedulesService({ db, bus, now, media, jobs }: SchedulesDeps) {
  /** A schedule of the caller's company (404 otherwise); the routes declare the plan's useSchedules. */
  async function scheduleOf(actor: AuthContext, id: number): Promise<ScheduleRow> {
    const row = await q.findScheduleRow(db, actor.companyId, id);
    if (!row) throw new AppError("ERR_NO_SCHEDULE_FOUND");
    return row;
  }

  /** One the caller may change, and that has not gone out. */
  async function editableOf(actor: AuthContext, id: number): Promise<ScheduleRow> {
    const row = await scheduleOf(actor, id);
    schedulePolicy.edit(actor, row);
    if (!isScheduleEditable({ status: row.status, sentAt: row.sentAt?.toISOString() ?? null }))
      throw new AppError("ERR_SCHEDULE_ALREADY_SENT");
    return row;
  }

  async function checkContact(companyId: number, contactId: number) {
    if (!(await q.contactExists(db, companyId, contactId))) throw new AppError("ERR_NO_CONTACT_FOUND");
  }

  async function checkConnection(companyId: number, whatsappId: number | null | undefined) {
    if (whatsappId === null || whatsappId === undefined) return;
    if (!(await q.connectionExists(db, companyId, whatsappId))) throw new AppError("ERR_NO_WAPP_FOUND");
  }

  /** The job that sends it at its time, in the same transaction as the schedule it serves. */
  async function queueSend(tx: Tx, companyId: number, scheduleId: number, sendAt: Date) {
    await q.dropPendingJobs(tx, companyId, scheduleId);
    await enqueueJob(tx, {
      type: q.SEND_SCHEDULE_JOB,
      companyId,
      payload: { scheduleId },
      runAt: sendAt,
      maxAttempts: 3,
    });
  }

  async function announce(
    tx: Executor,
    raise: Raise,
    companyId: number,
    id: number,
    action: "create" | "update",
  ) {
    const schedule = (await q.findSchedule(tx, companyId, id))!;
    raise({ type: "schedule.changed", companyId, payload: { action, schedule } });
    return schedule;
  }

  /** Due already (a time in the past): the runner looks at once rather than at its next poll. */
  function pokeIfDue(sendAt: Date) {
    if (sendAt <= now()) jobs.poke();
  }

  /** Saves a change of a schedule that has not gone out, under its row lock. */
  async function change(
    actor: AuthContext,
    id: number,
    values: Partial<typeof schedules.$inferInsert>,
    resend: boolean,
  ): Promise<ScheduleDTO> {
    const saved = await inTransaction(db, bus, async (tx, raise) => {
      const row = await q.lockScheduleRow(tx, actor.companyId, id);
      if (!row) throw new AppError("ERR_NO_SCHEDULE_FOUND");
      // The sender took it between our reading and this lock.
      if (!isScheduleEditable({ status: row.status, sentAt: row.sentAt?.toISOString() ?? null }))
        throw new AppError("ERR_SCHEDULE_ALREADY_SENT");
      const updated = await q.updateSchedule(tx, actor.companyId, id, { ...values, updatedAt: now() });
      // Saving the form queues it again for its (maybe new) time; a failed one is so tried again.
      if (resend) {
        await q.updateSchedule(tx, actor.companyId, id, { status: "PENDENTE", error: null });
        await queueSend(tx, actor.companyId, id, updated!.sendAt);
      }
      return { dto: await announce(tx, raise, actor.companyId, id, "update"), sendAt: updated!.sendAt };
    });
    pokeIfDue(saved.sendAt);
    return saved.dto;
  }

  return {
    async page(actor: AuthContext, query: SchedulesQuery): Promise<SchedulesPage> {
      const zone = query.from || query.to ? await companyTimeZone(db, actor.companyId) : DEFAULT_TIMEZONE;
      return q.pageSchedules(
        db,
        actor.companyId,
        {
          searchParam: query.searchParam,
          contactId: query.contactId,
          status: query.status,
          from: query.from ? parseSendAt(query.from, zone) : undefined,
          to: query.to ? parseSendAt(query.to, zone) : undefined,
        },
        { pageNumber: query.pageNumber, pageSize: LIMITS.pageSize },
      );
    },

    async get(actor: AuthContext, id: number): Promise<ScheduleDTO> {
      await scheduleOf(actor, id);
      const schedule = await q.findSchedule(db, actor.companyId, id);
      if (!schedule) throw new AppError("ERR_NO_SCHEDULE_FOUND");
      return schedule;
    },

    async create(actor: AuthContext, input: ScheduleCreateInput): Promise<ScheduleDTO> {
      await checkContact(actor.companyId, input.contactId);
      await checkConnection(actor.companyId, input.whatsappId);
      const sendAt = parseSendAt(input.sendAt, await companyTimeZone(db, actor.companyId));
      const schedule = await inTransaction(db, bus, async (tx, raise) => {
        // The plan's limit counts the schedules still to go out; two creations at once cannot both pass it.
        await requirePlanRoom(tx, actor.companyId, "schedules", () => q.countPending(tx, actor.companyId));
        const scheduleId = await q.insertSchedule(tx, actor.companyId, {
          contactId: input.contactId,
          userId: actor.userId,
          whatsappId: input.whatsappId ?? null,
          body: input.body,
          sendAt,
          status: "PENDENTE",
          createdAt: now(),
          updatedAt: now(),
        });
        await queueSend(tx, actor.companyId, scheduleId, sendAt);
        return announce(tx, raise, actor.companyId, scheduleId, "create");
      });
      pokeIfDue(sendAt);
      return schedule;
    },

    /** PUT /schedules/{id}: only before it goes out; queued again for its time, so a failed one is tried again. */
    async update(actor: AuthContext, id: number, input: ScheduleUpdateInput): Promise<ScheduleDTO> {
      await editableOf(actor, id);
      if (input.contactId !== undefined) await checkContact(actor.companyId, input.contactId);
      await checkConnection(actor.companyId, input.whatsappId);
      const sendAt =
        input.sendAt !== undefined
          ? parseSendAt(input.sendAt, await companyTimeZone(db, actor.companyId))
          : undefined;
      return change(
        actor,
        id,
        { body: input.body, contactId: input.contactId, whatsappId: input.whatsappId, sendAt },
        true,
      );
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      const row = await scheduleOf(actor, id);
      schedulePolicy.edit(actor, row);
      await inTransaction(db, bus, async (tx, raise) => {
        await q.lockScheduleRow(tx, actor.companyId, id);
        await q.dropPendingJobs(tx, actor.companyId, id);
        const gone = await q.deleteSchedule(tx, actor.companyId, id);
        if (gone)
          raise({
            type: "schedule.changed",
            companyId: actor.companyId,
            payload: { action: "delete", scheduleId: id },
          });
      });
    },

    /** POST /schedules/{id}/media-upload: a png, jpg or jpeg image sent with the message. */
    async attachMedia(
      actor: AuthContext,
      id: number,
      read: () => Promise<UploadedFile>,
      lang: Lang,
    ): Promise<ScheduleDTO> {
      await editableOf(actor, id);
      const file = await read();
      // The type the bytes say, not the one the sender claimed.
      const sniffed = await fileTypeFromBuffer(file.data);
      if (!sniffed || !(SCHEDULE.mediaTypes as readonly string[]).includes(sniffed.mime))
        throw new AppError("ERR_VALIDATION", {
          fields: { file: validationMessage("validation.pngJpgOnly", lang) },
        });
      const stored = await media.save(actor.companyId, file.data, sniffed.mime);
      return change(actor, id, { mediaPath: stored.path, mediaName: mediaNameOf(file.filename) }, false);
    },

    async removeMedia(actor: AuthContext, id: number): Promise<ScheduleDTO> {
      await editableOf(actor, id);
      return change(actor, id, { mediaPath: null, mediaName: null }, false);
    },
  };
}

export type SchedulesService = ReturnType<typeof createSchedulesService>;
