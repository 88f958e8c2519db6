import { isOptOutAnswer, readCampaignSettings } from "@atende/contracts";
import {
  type DomainEvent,
  type EventBus,
  type Follower,
  type Raise,
  inTransaction,
} from "../../events/bus.js";
import { type JobHandler, enqueueJob } from "../../jobs/runner.js";
import * as q from "./queries.js";
import {
  type SenderDeps,
  enqueueConfirmationTimeout,
  finishIfDone,
  queueCampaignMessage,
  raiseProgress,
} from "./sender.js";
import { loadCampaignSettings } from "./settings.js";
import * as s from "./shippings/queries.js";

/**
 * What customers' answers and WhatsApp's answers do to campaigns, in the transaction that stores them:
 * - an opt-out word as the whole message: the number is never in a campaign of the company again
 *   (its rows still waiting are skipped);
 * - any other answer of a recipient waiting for it: the confirmation is given (confirmedAt, at once),
 *   and a job sends the campaign message;
 * - no answer by the confirmation's deadline (confirmationTimeoutHours after the request): the
 *   recipient is `unconfirmed`, never sent the message, and the campaign can finish;
 * - a campaign message whose send gave up: that recipient is marked failed with the reason; its acks
 *   reach the report live.
 */

/** A recipient's row waiting for an answer. */
type Awaiting = Awaited<ReturnType<typeof s.awaitingOf>>[number];

/** Longer answers cannot be an opt-out word: they are not even compared with the words. */
const OPT_OUT_MAX_LENGTH = 60;

export function campaignAnswersWithin(bus: EventBus, poke: () => void, now: () => Date): Follower {
  return async (tx, events) => {
    let queued = false;
    // A follower cannot raise: the report's live changes are published once the answer commits.
    const deferred: DomainEvent[] = [];
    const raise: Raise = (e) => deferred.push(e);
    const answersOf = new Map<number, Extract<DomainEvent, { type: "message.saved" }>[]>();
    for (const event of events) {
      if (event.type !== "message.saved") continue;
      const { message, contact, companyId } = event;
      if (event.action === "update" && message.fromMe) {
        const rows = await s.shippingsOfMessage(tx, companyId, message.id);
        for (const row of rows) {
          // The provider's own id once it took the message (some providers answer another than ours).
          if (row.messageId === message.id) {
            const wid = await s.widOf(tx, companyId, message.id);
            if (wid && wid !== row.wid) await s.updateShipping(tx, companyId, row.id, { wid });
          }
          if (message.sendError && (row.state === "sent" || row.state === "awaiting_confirmation")) {
            await s.updateShipping(tx, companyId, row.id, {
              state: "failed",
              error: `ERR_CAMPAIGN_SEND_FAILED: ${message.sendError}`.slice(0, 500),
              updatedAt: now(),
            });
          }
          await raiseProgress(tx, raise, companyId, row.id, now());
        }
        continue;
      }
      if (event.action !== "create" || message.fromMe || contact.isGroup) continue;
      const answers = answersOf.get(companyId) ?? [];
      answers.push(event);
      answersOf.set(companyId, answers);
    }
    // Customers' messages, per company: a batch of them (the inbound pipeline stores up to dozens in
    // one transaction) reads the settings and the recipients waiting for them in one statement, not
    // statements per message on the path of every customer message.
    for (const [companyId, answers] of answersOf) {
      const context = await s.answersContext(tx, companyId, [...new Set(answers.map((a) => a.contact.id))]);
      const { optOutWords } = readCampaignSettings(context.settingRows);
      const waiting = new Map<number, Awaiting[]>();
      for (const row of context.waiting)
        waiting.set(row.contactId!, [...(waiting.get(row.contactId!) ?? []), row]);
      for (const { message, contact } of answers) {
        const body = message.body?.trim() ?? "";
        if (body && body.length <= OPT_OUT_MAX_LENGTH && isOptOutAnswer(body, optOutWords)) {
          const [recent] = waiting.get(contact.id) ?? [];
          const skipped = await s.optOut(tx, companyId, {
            number: contact.number,
            contactId: contact.id,
            word: body.slice(0, 40),
            campaignId: recent?.campaignId ?? null,
            at: now(),
          });
          for (const row of skipped) await raiseProgress(tx, raise, companyId, row.id, now());
          // What still waits for this contact after the opt-out (another number of theirs, say).
          waiting.set(contact.id, await s.awaitingOf(tx, companyId, contact.id));
          continue;
        }
        for (const row of waiting.get(contact.id) ?? []) {
          // Answered in time, whenever the job below runs: the deadline no longer applies.
          if (!row.confirmedAt) {
            const at = now();
            await s.updateShipping(tx, companyId, row.id, { confirmedAt: at });
            row.confirmedAt = at; // a second answer in the batch finds it confirmed, as a new read would
          }
          const id = await enqueueJob(tx, {
            type: q.CONFIRM_CAMPAIGN_JOB,
            companyId,
            payload: { shippingId: row.id },
            dedupeKey: `campaign-confirm:${row.id}`,
          });
          queued ||= id !== null;
        }
      }
    }
    if (!queued && deferred.length === 0) return undefined;
    return () => {
      if (queued) poke();
      if (deferred.length) void bus.publish(deferred);
    };
  };
}

/** The confirmed recipient's campaign message, sent once (the row leaves awaiting_confirmation with it). */
export function confirmCampaignJob(deps: SenderDeps): JobHandler<typeof q.CONFIRM_CAMPAIGN_JOB> {
  return {
    async run(job, ctx) {
      const companyId = job.companyId!;
      await inTransaction(deps.db, deps.bus, async (tx, raise) => {
        const row = await s.lockShipping(tx, companyId, job.payload.shippingId);
        if (!row || row.state !== "awaiting_confirmation" || !row.contactId) return;
        // The campaign's row for update at once, not shared then upgraded by finishIfDone: two
        // answers confirmed together (one inbound batch) ran two of these side by side, each holding
        // a share lock the other's upgrade waited for, and PostgreSQL broke the deadlock by failing one.
        const c = await q.lockCampaignRow(tx, companyId, row.campaignId);
        // A cancelled campaign sends nothing more, answers included.
        if (!c || c.status === "CANCELADA" || !c.whatsappId) return;
        const ticketId = await s.ticketFor(tx, companyId, row.contactId, row.whatsappId ?? c.whatsappId);
        const messageId = await queueCampaignMessage(tx, raise, c, ticketId, row.message ?? "", ctx.now);
        await s.updateShipping(tx, companyId, row.id, {
          state: "sent",
          messageId,
          wid: await s.widOf(tx, companyId, messageId),
          confirmedAt: row.confirmedAt ?? ctx.now,
          deliveredAt: ctx.now,
          updatedAt: ctx.now,
        });
        await raiseProgress(tx, raise, companyId, row.id, ctx.now);
        await finishIfDone(tx, raise, companyId, c.id, ctx.now);
      });
      deps.poke();
    },
  };
}

/**
 * A confirmation request's deadline: a recipient who has not answered by now (the timeout in the
 * settings now, counted from the request; a longer one set since moves the deadline on) is
 * `unconfirmed`, and the campaign finishes once nobody else is open. A late answer sends nothing.
 */
export function confirmTimeoutJob(deps: SenderDeps): JobHandler<typeof q.CONFIRM_TIMEOUT_CAMPAIGN_JOB> {
  return {
    async run(job, ctx) {
      const companyId = job.companyId!;
      await inTransaction(deps.db, deps.bus, async (tx, raise) => {
        const row = await s.lockShipping(tx, companyId, job.payload.shippingId);
        if (!row || row.state !== "awaiting_confirmation" || row.confirmedAt || !row.confirmationRequestedAt)
          return;
        const { confirmationTimeoutHours } = await loadCampaignSettings(tx, companyId);
        const deadline = row.confirmationRequestedAt.getTime() + confirmationTimeoutHours * 3600_000;
        if (deadline > ctx.now.getTime()) {
          await enqueueConfirmationTimeout(
            tx,
            companyId,
            row.id,
            row.confirmationRequestedAt,
            confirmationTimeoutHours,
          );
          return;
        }
        await s.updateShipping(tx, companyId, row.id, { state: "unconfirmed", updatedAt: ctx.now });
        await raiseProgress(tx, raise, companyId, row.id, ctx.now);
        await finishIfDone(tx, raise, companyId, row.campaignId, ctx.now);
      });
    },
  };
}
