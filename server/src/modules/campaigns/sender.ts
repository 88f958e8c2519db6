import { fileNameOf, mimeOf } from "../../storage/mime.js";
import type { CampaignSettingsValues } from "@atende/contracts";
import { checkNumbers } from "../../channels/numberChecks.js";
import type { ChannelSession } from "../../channels/provider.js";
import type { SessionManager } from "../../channels/sessions.js";
import { type Db, type Executor, type Tx, isDatabaseUnavailable } from "../../db/client.js";
import { type EventBus, type Raise, inTransaction } from "../../events/bus.js";
import { type JobHandler, enqueueJob } from "../../jobs/runner.js";
import { queueOutbound } from "../messages/outbound.js";
import { companyTimeZone } from "../settings/queries.js";
import type { CampaignRow, ShippingRow } from "./present.js";
import * as q from "./queries.js";
import { outsideCloudWindow, queueCampaignTemplate } from "./cloudWindow.js";
import { loadCampaignSettings } from "./settings.js";
import * as s from "./shippings/queries.js";
import {
  type Random,
  countdownTo,
  nextDay,
  pickVariant,
  renderFor,
  startOfDay,
  waitAfterSend,
  windowOpening,
} from "./variables.js";

/**
 * The campaign sender, as durable jobs:
 * - campaign-start (at scheduledAt, any instance): makes one row per recipient (INSERT … SELECT, so
 *   a restart adds only those not there yet), moves the campaign to EM_ANDAMENTO and starts the chain.
 * - campaign-step: one recipient per run, then the next step enqueued in the same transaction at
 *   now + the wait. Every step of a connection shares the orderKey `campaign:wa:{id}`, so one
 *   campaign message at a time goes through a connection across every instance. The recipient's
 *   row leaves `pending` in the transaction that queues its message on the connection (the outbound
 *   path agents use, with the WhatsApp message id we give it recorded on the row): a kill -9, a
 *   second instance or a second chain never hands one recipient over twice. A cancel (under the
 *   campaign's row lock) stops the chain before the next recipient; `run` retires the chains of an
 *   earlier start.
 */

export interface SenderDeps {
  db: Db;
  bus: EventBus;
  now: () => Date;
  random: Random;
  sessions: Pick<SessionManager, "session">;
  poke: () => void;
}

/** How often a paused campaign looks at its connection again. */
const PAUSE_POLL_SECONDS = 15;
/**
 * The totals ride with a progress event at most this often per campaign, and at most a tenth of the
 * sender's time goes to them: counting grows with the audience (about 0.15 s at 10,000 recipients
 * here), so a big campaign's totals come less often than every second.
 */
const TOTALS_EVERY_MS = 1000;
const TOTALS_SHARE = 10;
const STEP_ATTEMPTS = 20;
/** Recipients after the one being sent that are checked on WhatsApp with it (one query for all). */
const CHECK_AHEAD = 99;

export async function announceCampaign(
  tx: Executor,
  raise: Raise,
  companyId: number,
  id: number,
  action: "create" | "update",
) {
  const record = await q.findCampaign(tx, companyId, id);
  if (record) raise({ type: "campaign.changed", companyId, payload: { action, record } });
  return record;
}

/** Per running campaign: when its totals last went out, and how long counting them took. */
const lastTotals = new Map<number, { at: number; costMs: number }>();

/** A recipient's new state on the live channel; the totals too when due (always with `final`). */
export async function raiseProgress(
  tx: Executor,
  raise: Raise,
  companyId: number,
  shippingId: number,
  at: Date,
  final = false,
) {
  const shipping = await s.shippingDTO(tx, companyId, shippingId);
  if (!shipping) return;
  const last = lastTotals.get(shipping.campaignId);
  const gap = Math.max(TOTALS_EVERY_MS, (last?.costMs ?? 0) * TOTALS_SHARE);
  const due = final || !last || at.getTime() - last.at >= gap || at.getTime() < last.at;
  let totals = null;
  if (due) {
    const started = performance.now();
    totals = await s.campaignTotals(tx, companyId, shipping.campaignId);
    // The last send of a run forgets the campaign (the map keeps only running ones).
    if (final) lastTotals.delete(shipping.campaignId);
    else lastTotals.set(shipping.campaignId, { at: at.getTime(), costMs: performance.now() - started });
  }
  raise({
    type: "campaign.changed",
    companyId,
    payload: { action: "progress", campaignId: shipping.campaignId, totals, shipping },
  });
}

export function enqueueStep(
  tx: Executor,
  c: Pick<CampaignRow, "id" | "companyId" | "whatsappId" | "run">,
  runAt?: Date,
  sent = 0,
) {
  return enqueueJob(tx, {
    type: q.STEP_CAMPAIGN_JOB,
    companyId: c.companyId,
    payload: { campaignId: c.id, run: c.run, sent },
    orderKey: `campaign:wa:${c.whatsappId ?? 0}`,
    runAt,
    maxAttempts: STEP_ATTEMPTS,
  });
}

/**
 * Starts (or restarts) a campaign inside the caller's transaction, the campaign's row locked: the
 * audience's rows, EM_ANDAMENTO with a new run, and its first step.
 */
export async function startCampaign(tx: Tx, raise: Raise, row: CampaignRow, at: Date) {
  await s.insertAudience(tx, row.companyId, row, at);
  const started = (await q.updateCampaign(tx, row.companyId, row.id, {
    status: "EM_ANDAMENTO",
    startedAt: row.startedAt ?? at,
    completedAt: null,
    pausedReason: null,
    run: row.run + 1,
    updatedAt: at,
  }))!;
  await enqueueStep(tx, started);
  await announceCampaign(tx, raise, row.companyId, row.id, "update");
}

/** FINALIZADA once no recipient is pending or waiting for a confirmation answer. */
export async function finishIfDone(tx: Tx, raise: Raise, companyId: number, campaignId: number, at: Date) {
  const live = await q.lockCampaignRow(tx, companyId, campaignId);
  if (!live || live.status !== "EM_ANDAMENTO") return;
  const open = await s.countOpen(tx, campaignId);
  if (open.pending > 0 || open.awaiting > 0) return;
  await q.updateCampaign(tx, companyId, campaignId, {
    status: "FINALIZADA",
    completedAt: at,
    pausedReason: null,
    updatedAt: at,
  });
  await announceCampaign(tx, raise, companyId, campaignId, "update");
}

/** The deadline of a recipient's confirmation request (answers.ts settles it). */
export function enqueueConfirmationTimeout(
  tx: Executor,
  companyId: number,
  shippingId: number,
  requestedAt: Date,
  hours: number,
) {
  return enqueueJob(tx, {
    type: q.CONFIRM_TIMEOUT_CAMPAIGN_JOB,
    companyId,
    payload: { shippingId },
    runAt: new Date(requestedAt.getTime() + hours * 3600_000),
  });
}

/** Queues the campaign message (its media, then the file list's files) in the recipient's ticket. */
export async function queueCampaignMessage(
  tx: Tx,
  raise: Raise,
  c: CampaignRow,
  ticketId: number,
  body: string,
  at: Date,
): Promise<number> {
  const media = c.mediaPath
    ? { path: c.mediaPath, mimetype: mimeOf(c.mediaPath), name: c.mediaName ?? "arquivo" }
    : null;
  const id = await queueOutbound(tx, raise, {
    companyId: c.companyId,
    ticketId,
    body,
    media,
    isBot: true,
    at,
  });
  if (c.fileListId) {
    for (const f of await q.fileListOptions(tx, c.companyId, c.fileListId))
      await queueOutbound(tx, raise, {
        companyId: c.companyId,
        ticketId,
        body: "",
        media: {
          path: f.path,
          mimetype: f.mediaType.includes("/") ? f.mediaType : mimeOf(f.path),
          name: fileNameOf(f.name, f.path),
        },
        isBot: true,
        at,
      });
  }
  return id;
}

export function startCampaignJob(deps: SenderDeps): JobHandler<typeof q.START_CAMPAIGN_JOB> {
  return {
    async run(job, ctx) {
      const companyId = job.companyId!;
      await inTransaction(deps.db, deps.bus, async (tx, raise) => {
        const row = await q.lockCampaignRow(tx, companyId, job.payload.campaignId);
        // Gone, cancelled, or moved to a later time (its new job starts it then).
        if (!row || row.status !== "PROGRAMADA" || !row.scheduledAt || row.scheduledAt > ctx.now) return;
        await startCampaign(tx, raise, row, ctx.now);
      });
      deps.poke();
    },
  };
}

type StepOutcome = "stop" | "again" | "done";

export function stepCampaignJob(deps: SenderDeps): JobHandler<typeof q.STEP_CAMPAIGN_JOB> {
  const { db, bus, random } = deps;

  /** Waits (with the reason on the campaign) and looks again at `until`. */
  async function pause(c: CampaignRow, reason: string, until: Date, at: Date, sent: number) {
    await inTransaction(db, bus, async (tx, raise) => {
      const live = await q.lockCampaignRow(tx, c.companyId, c.id);
      if (!live || live.status !== "EM_ANDAMENTO" || live.run !== c.run) return;
      if (live.pausedReason !== reason) {
        await q.updateCampaign(tx, c.companyId, c.id, { pausedReason: reason, updatedAt: at });
        await announceCampaign(tx, raise, c.companyId, c.id, "update");
      }
      await enqueueStep(tx, live, until, sent);
    });
  }

  /** Marks one recipient failed with the reason, and goes on with the next at once. */
  async function failOne(c: CampaignRow, shippingId: number, reason: string, at: Date, sent: number) {
    await inTransaction(db, bus, async (tx, raise) => {
      const row = await s.lockShipping(tx, c.companyId, shippingId);
      if (row?.state === "pending") {
        await s.updateShipping(tx, c.companyId, shippingId, {
          state: "failed",
          error: reason.slice(0, 500),
          updatedAt: at,
        });
        await raiseProgress(tx, raise, c.companyId, shippingId, at);
      }
      await enqueueStep(tx, c, undefined, sent);
    });
  }

  /** Hands one recipient over, in one transaction with its row leaving `pending`. */
  async function sendOne(
    c: CampaignRow,
    next: ShippingRow,
    notOnWhatsapp: boolean,
    at: Date,
    sent: number,
    settings: CampaignSettingsValues,
  ): Promise<StepOutcome> {
    return inTransaction(db, bus, async (tx, raise) => {
      // A cancel waits for this send to commit, and the next step sees it.
      const live = await q.shareCampaignRow(tx, c.companyId, c.id);
      if (!live || live.status !== "EM_ANDAMENTO" || live.run !== c.run || !live.whatsappId) return "stop";
      const row = await s.claimPending(tx, c.companyId, next.id);
      if (!row) {
        await enqueueStep(tx, live, undefined, sent);
        return "again";
      }
      if (live.pausedReason) {
        await q.updateCampaign(tx, c.companyId, c.id, { pausedReason: null, updatedAt: at });
        await announceCampaign(tx, raise, c.companyId, c.id, "update");
      }
      if (notOnWhatsapp) {
        await s.updateShipping(tx, c.companyId, row.id, {
          state: "skipped",
          error: "ERR_CAMPAIGN_NOT_ON_WHATSAPP",
          updatedAt: at,
        });
        await raiseProgress(tx, raise, c.companyId, row.id, at);
        await enqueueStep(tx, live, undefined, sent);
        return "again";
      }
      const variant = pickVariant(live, "message", random);
      if (!variant) {
        await s.updateShipping(tx, c.companyId, row.id, {
          state: "failed",
          error: "ERR_CAMPAIGN_NO_MESSAGE",
          updatedAt: at,
        });
        await raiseProgress(tx, raise, c.companyId, row.id, at);
        await enqueueStep(tx, live, undefined, sent);
        return "again";
      }
      const person = { name: row.name, number: row.number, email: row.email };
      const message = renderFor(variant.text, person, settings.variables);
      const contactId = row.contactId ?? (await s.contactFor(tx, c.companyId, person, at));
      // Cloud API, outside the 24-hour window: the campaign's template, or nothing (cloudWindow.ts).
      const outside = await outsideCloudWindow(tx, c.companyId, contactId, live.whatsappId, at);
      if (outside && !live.template) {
        await s.updateShipping(tx, c.companyId, row.id, {
          state: "skipped",
          contactId,
          error: "ERR_CAMPAIGN_OUTSIDE_WINDOW",
          updatedAt: at,
        });
        await raiseProgress(tx, raise, c.companyId, row.id, at);
        await enqueueStep(tx, live, undefined, sent);
        return "again";
      }
      const ticketId = await s.ticketFor(tx, c.companyId, contactId, live.whatsappId);
      // The confirmation request is free-form too: outside the window the template goes alone.
      const confirmation =
        live.confirmation && !outside ? pickVariant(live, "confirmationMessage", random) : null;
      if (outside && live.template) {
        const { messageId, text } = await queueCampaignTemplate(
          tx,
          raise,
          live,
          ticketId,
          person,
          settings,
          at,
        );
        await s.updateShipping(tx, c.companyId, row.id, {
          state: "sent",
          contactId,
          variant: variant.index,
          message: text,
          messageId,
          wid: await s.widOf(tx, c.companyId, messageId),
          deliveredAt: at,
          updatedAt: at,
        });
      } else if (confirmation) {
        const text = renderFor(confirmation.text, person, settings.variables);
        const messageId = await queueOutbound(tx, raise, {
          companyId: c.companyId,
          ticketId,
          body: text,
          isBot: true,
          at,
        });
        await s.updateShipping(tx, c.companyId, row.id, {
          state: "awaiting_confirmation",
          contactId,
          variant: variant.index,
          message,
          confirmationMessage: text,
          confirmationMessageId: messageId,
          confirmationRequestedAt: at,
          updatedAt: at,
        });
        await enqueueConfirmationTimeout(tx, c.companyId, row.id, at, settings.confirmationTimeoutHours);
      } else {
        const messageId = await queueCampaignMessage(tx, raise, live, ticketId, message, at);
        await s.updateShipping(tx, c.companyId, row.id, {
          state: "sent",
          contactId,
          variant: variant.index,
          message,
          messageId,
          wid: await s.widOf(tx, c.companyId, messageId),
          deliveredAt: at,
          updatedAt: at,
        });
      }
      const handed = sent + 1;
      const wait = waitAfterSend(handed, settings, random);
      const last = !(await s.peekPending(tx, c.id));
      await raiseProgress(tx, raise, c.companyId, row.id, at, last);
      await enqueueStep(tx, live, countdownTo(at, wait), handed);
      return "done";
    });
  }

  /**
   * Whether WhatsApp says the recipient has no account. Through the number check the list check
   * used: what it answered for the company is not asked again; when the recipient must be asked,
   * the next ones ride in the same query, and their answers wait for their turn. A check that
   * fails sends anyway.
   */
  async function notOnWhatsappNow(session: ChannelSession, next: ShippingRow): Promise<boolean> {
    const ahead = session.checkNumbers
      ? await s.pendingNumbersAfter(db, next.campaignId, next.id, CHECK_AHEAD)
      : [];
    const answers = await checkNumbers(session, [next.number], ahead).catch(() => null);
    return answers?.get(next.number) === null;
  }

  return {
    async run(job, ctx) {
      const companyId = job.companyId!;
      const { campaignId, run, sent } = job.payload;
      const at = ctx.now;
      const c = await q.findCampaignRow(db, companyId, campaignId);
      if (!c || c.status !== "EM_ANDAMENTO" || c.run !== run || !c.whatsappId) return;
      const connection = await q.connectionOf(db, companyId, c.whatsappId);
      if (!connection) return;
      if (connection.status !== "CONNECTED")
        return pause(c, "ERR_CAMPAIGN_PAUSED_DISCONNECTED", countdownTo(at, PAUSE_POLL_SECONDS), at, sent);
      const settings = await loadCampaignSettings(db, companyId);
      const zone = await companyTimeZone(db, companyId);
      const opening = windowOpening(at, settings, zone);
      if (opening) return pause(c, "ERR_CAMPAIGN_PAUSED_WINDOW", opening, at, sent);
      if (settings.dailyCap > 0) {
        const today = await s.countHandedSince(db, companyId, connection.id, startOfDay(at, zone));
        if (today >= settings.dailyCap)
          return pause(c, "ERR_CAMPAIGN_PAUSED_DAILY_CAP", nextDay(at, zone), at, sent);
      }
      const next = await s.peekPending(db, c.id);
      if (!next) {
        await inTransaction(db, bus, (tx, raise) => finishIfDone(tx, raise, companyId, c.id, at));
        return;
      }
      // Asked only where the connection's session runs (elsewhere the list's own check stands).
      const session = deps.sessions.session(connection.id);
      const notOnWhatsapp = session ? await notOnWhatsappNow(session, next) : false;
      try {
        const outcome = await sendOne(c, next, notOnWhatsapp, at, sent, settings);
        if (outcome !== "stop") deps.poke();
      } catch (err) {
        if (isDatabaseUnavailable(err)) throw err;
        // This recipient failed (the reason kept); the others still go.
        await failOne(c, next.id, `ERR_CAMPAIGN_SEND_FAILED: ${(err as Error).message}`, at, sent);
        deps.poke();
      }
    },
    async onFailed(job) {
      // The chain must not die with one step: the next step looks again a little later.
      const c = await q.findCampaignRow(db, job.companyId!, job.payload.campaignId);
      if (c && c.status === "EM_ANDAMENTO" && c.run === job.payload.run)
        await enqueueStep(db, c, countdownTo(deps.now(), PAUSE_POLL_SECONDS));
    },
  };
}
