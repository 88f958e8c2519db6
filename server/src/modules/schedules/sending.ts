import { mimeOf } from "../../storage/mime.js";
import type { ErrorCode } from "@atende/contracts";
import type { Db, Executor } from "../../db/client.js";
import type { schedules } from "../../db/schema/index.js";
import { type EventBus, type Follower, type Raise, inTransaction } from "../../events/bus.js";
import { type JobHandler, JobFailed, RetryLater, enqueueJob } from "../../jobs/runner.js";
import { queueOutbound } from "../messages/outbound.js";
import { openOrFindLiveTicket } from "../tickets/openLive.js";
import { onlyTemplateMayGo } from "../cloudTemplates/window.js";
import type { SEND_SCHEDULE_JOB } from "./queries.js";
import {
  SETTLE_SCHEDULE_JOB,
  findAuthorId,
  findSchedule,
  findScheduleRow,
  lockScheduleRow,
  messageOutcome,
  scheduleOfMessage,
  sendingConnection,
  updateSchedule,
} from "./queries.js";

/**
 * Sending a schedule takes two durable steps. At sendAt, send-schedule hands the message to the
 * connection through the ordered outbound queue (the same path an agent's message takes, so it
 * shows in the contact's ticket): PENDENTE → AGENDADA. When WhatsApp takes it (ack) the schedule
 * becomes ENVIADA with sentAt, or ERRO when the send gives up; the message's own event settles it at
 * once, and settle-schedule checks again later in case this instance died before hearing it.
 */

interface SendingDeps {
  db: Db;
  bus: EventBus;
  now: () => Date;
}

/** A connection in these states may come back on its own within seconds: try again shortly. */
const RECONNECTING = new Set(["OPENING", "PAIRING"]);
const RECONNECT_WAIT_SECONDS = 10;
const SETTLE_AFTER_SECONDS = 30;

/** The reason stored on a failed schedule: an ERR_* code the UI translates, then the details. */
export function failureReason(code: ErrorCode, detail?: string): string {
  return (detail ? `${code}: ${detail}` : code).slice(0, 500);
}

async function raiseSchedule(tx: Executor, raise: Raise, companyId: number, id: number) {
  const schedule = await findSchedule(tx, companyId, id);
  if (schedule) raise({ type: "schedule.changed", companyId, payload: { action: "update", schedule } });
}

/** Marks a schedule that has not gone out yet as failed, with the reason. */
async function markFailed(deps: SendingDeps, companyId: number, scheduleId: number, reason: string) {
  await inTransaction(deps.db, deps.bus, async (tx, raise) => {
    const row = await lockScheduleRow(tx, companyId, scheduleId);
    if (!row || (row.status !== "PENDENTE" && row.status !== "AGENDADA")) return;
    await updateSchedule(tx, companyId, scheduleId, { status: "ERRO", error: reason, updatedAt: deps.now() });
    await raiseSchedule(tx, raise, companyId, scheduleId);
  });
}

/** The job run at a schedule's sendAt (lane-free: any instance may hand it over). */
export function sendScheduleJob(deps: SendingDeps): JobHandler<typeof SEND_SCHEDULE_JOB> {
  const { db, bus, now } = deps;
  return {
    async run(job, ctx) {
      const companyId = job.companyId!;
      const { scheduleId } = job.payload;
      const first = await findScheduleRow(db, companyId, scheduleId);
      // Gone, sent already, or moved to a later time (an edit queued another job for it).
      if (!first || first.status !== "PENDENTE" || first.sendAt > ctx.now) return;
      const connection = await sendingConnection(db, companyId, first.whatsappId);
      if (!connection)
        throw new JobFailed(failureReason(first.whatsappId ? "ERR_NO_WAPP_FOUND" : "ERR_NO_DEF_WAPP_FOUND"));
      if (connection.status !== "CONNECTED") {
        if (RECONNECTING.has(connection.status) && !ctx.isLastAttempt)
          throw new RetryLater(`connection ${connection.id} is ${connection.status}`, RECONNECT_WAIT_SECONDS);
        throw new JobFailed(failureReason("ERR_SCHEDULE_CONNECTION_DOWN", connection.status));
      }
      // The Cloud API takes free-form messages only within 24 hours of the customer's last one:
      // outside it the schedule fails with that reason rather than failing later at Meta (131047).
      if (await onlyTemplateMayGo(db, companyId, first.contactId, connection, ctx.now))
        throw new JobFailed(failureReason("ERR_WAPP_24H_WINDOW"));
      await inTransaction(db, bus, async (tx, raise) => {
        // Two runners, or an edit, at the same moment: whoever holds the row decides; the other sees it moved on.
        const row = await lockScheduleRow(tx, companyId, scheduleId);
        if (!row || row.status !== "PENDENTE" || row.sendAt > ctx.now) return;
        const ticketId = await ticketFor(
          tx,
          raise,
          companyId,
          { contactId: row.contactId, whatsappId: connection.id },
          row.userId,
          ctx.now,
        );
        const ext = row.mediaPath?.split(".").pop() ?? "";
        const messageId = await queueOutbound(tx, raise, {
          companyId,
          ticketId,
          body: row.body,
          userId: row.userId,
          at: ctx.now,
          media: row.mediaPath
            ? {
                path: row.mediaPath,
                mimetype: mimeOf(row.mediaPath),
                name: row.mediaName ?? `imagem.${ext}`,
              }
            : null,
        });
        await updateSchedule(tx, companyId, scheduleId, {
          status: "AGENDADA",
          ticketId,
          messageId,
          error: null,
          updatedAt: now(),
        });
        await enqueueJob(tx, {
          type: SETTLE_SCHEDULE_JOB,
          companyId,
          payload: { scheduleId, messageId },
          runAt: new Date(ctx.now.getTime() + SETTLE_AFTER_SECONDS * 1000),
          maxAttempts: 40,
        });
        await raiseSchedule(tx, raise, companyId, scheduleId);
      });
    },
    async onFailed(job, error) {
      const reason = error.message.startsWith("ERR_")
        ? error.message
        : failureReason("ERR_SENDING_WAPP_MSG", error.message);
      await markFailed(deps, job.companyId!, job.payload.scheduleId, reason);
    },
  };
}

/**
 * The ticket the message goes to: the contact's live ticket on the connection, else a new one
 * opened for the schedule's author (or waiting, when the author is gone).
 */
async function ticketFor(
  tx: Executor,
  raise: Raise,
  companyId: number,
  key: { contactId: number; whatsappId: number },
  userId: number | null,
  at: Date,
): Promise<number> {
  const authorId = userId ? await findAuthorId(tx, companyId, userId) : null;
  const found = await openOrFindLiveTicket(
    tx,
    raise,
    companyId,
    key,
    { userId: authorId, queueId: null, status: authorId !== null ? "open" : "pending" },
    at,
  );
  if (!found) throw new JobFailed(failureReason("ERR_NO_CONTACT_FOUND"));
  return found.ticket.id;
}

/**
 * Settles a handed-over schedule from its message: ENVIADA once WhatsApp took it, ERRO when the
 * send gave up or the message is gone. Answers whether the schedule is settled now.
 */
export async function settleFromMessage(
  deps: SendingDeps,
  companyId: number,
  messageId: number,
): Promise<boolean> {
  const { db, bus, now } = deps;
  const pending = await scheduleOfMessage(db, companyId, messageId);
  if (!pending) return true;
  const m = await messageOutcome(db, companyId, messageId);
  let values: Partial<typeof schedules.$inferInsert>;
  if (m && m.ack > 0) values = { status: "ENVIADA", sentAt: now(), error: null };
  else if (pending.status === "ERRO") return true;
  else if (!m || m.isDeleted) values = { status: "ERRO", error: failureReason("ERR_SENDING_WAPP_MSG") };
  else if (m.sendError)
    values = { status: "ERRO", error: failureReason("ERR_SENDING_WAPP_MSG", m.sendError) };
  else return false;
  await inTransaction(db, bus, async (tx, raise) => {
    const row = await lockScheduleRow(tx, companyId, pending.id);
    // Settled meanwhile; a failed one still turns ENVIADA when its message went out after all (a retry from the chat).
    if (!row || row.messageId !== messageId || row.status === "ENVIADA" || row.status === "PENDENTE") return;
    if (row.status === "ERRO" && values.status !== "ENVIADA") return;
    await updateSchedule(tx, companyId, row.id, { ...values, updatedAt: now() });
    await raiseSchedule(tx, raise, companyId, row.id);
  });
  return true;
}

/**
 * In the transaction that records WhatsApp's answer about a schedule's message (its ack, or its send
 * given up): queues the schedule's settling, due at once. Settled by a listener after the commit
 * instead, a crash right after the commit left it to the safety net below, which gives up after 40
 * tries (20 minutes): a message acknowledged later than that (the phone offline meanwhile) left its
 * schedule AGENDADA for good.
 */
export function settleWithin(poke: () => void): Follower {
  return async (tx, events) => {
    let queued = false;
    for (const event of events) {
      if (event.type !== "message.saved" || event.action !== "update" || !event.message.fromMe) continue;
      if (!(event.message.ack > 0 || event.message.sendError)) continue;
      const messageId = event.message.id;
      const pending = await scheduleOfMessage(tx, event.companyId, messageId);
      if (!pending) continue;
      const id = await enqueueJob(tx, {
        type: SETTLE_SCHEDULE_JOB,
        companyId: event.companyId,
        payload: { scheduleId: pending.id, messageId },
        dedupeKey: `settle-schedule:${messageId}`,
      });
      queued ||= id !== null;
    }
    return queued ? poke : undefined;
  };
}

/** The safety net: settles a schedule whose message event this instance never heard. */
export function settleScheduleJob(deps: SendingDeps): JobHandler<typeof SETTLE_SCHEDULE_JOB> {
  return {
    async run(job) {
      const settled = await settleFromMessage(deps, job.companyId!, job.payload.messageId);
      if (!settled) throw new RetryLater("the message has not gone out yet", SETTLE_AFTER_SECONDS);
    },
  };
}
