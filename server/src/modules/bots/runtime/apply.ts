import type { Db, Tx } from "../../../db/client.js";
import { type EventBus, type Raise, inTransaction } from "../../../events/bus.js";
import type { Outbound } from "../../../lib/outbound.js";
import type { MediaStore } from "../../../storage/media.js";
import { botSays } from "../menu/botMessages.js";
import { lockTicket, saveBotState, updateTicketRow } from "../menu/queries.js";
import { closeTicket } from "../../tickets/closeTicket.js";
import { loadTicket, track } from "../../tickets/queries.js";
import type { Binding } from "./bindings.js";
import type { BotAction, BotReply } from "./contract.js";
import * as q from "./queries.js";

/** A reply ready to go out: its text and, for media, the file already in our media store. */
export interface ReadyReply {
  body: string;
  media: { path: string; mimetype: string; name: string } | null;
  /** The options a numbered answer picks from (a choices reply). */
  choices?: string[];
}

const MEDIA_MAX_SECONDS = 10;

/** The choices of a bot as the customer sees them: numbered, answered with the number. */
export function choicesText(text: string, options: string[]): string {
  const lines = options.map((o, i) => `*[ ${i + 1} ]* - ${o}`).join("\n");
  return text.trim() ? `${text}\n\n${lines}` : lines;
}

const EXT_BY_MIME: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "video/mp4": "mp4",
  "application/pdf": "pdf",
};

/**
 * The bot's replies made ready to send: media fetched (within the turn's deadline) and stored as
 * ours, so what is queued for the customer no longer depends on the bot's server. A reply's URL is
 * whatever the bot says: it is fetched through the guarded client (a public address on every hop,
 * at most the media limit read), never from inside our network.
 */
export async function prepareReplies(
  outbound: Outbound,
  media: MediaStore,
  companyId: number,
  replies: BotReply[],
  signal: AbortSignal,
): Promise<ReadyReply[]> {
  const ready: ReadyReply[] = [];
  for (const reply of replies) {
    if (reply.type === "text") {
      if (reply.text.trim()) ready.push({ body: reply.text, media: null });
      continue;
    }
    if (reply.type === "choices") {
      ready.push({ body: choicesText(reply.text, reply.options), media: null, choices: reply.options });
      continue;
    }
    let data = reply.data;
    let mimetype = reply.mimetype ?? "";
    if (!data) {
      if (!reply.url) continue;
      const res = await outbound.fetch(reply.url, {
        signal,
        timeoutMs: MEDIA_MAX_SECONDS * 1000,
        maxBytes: media.maxBytes,
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`the bot's ${reply.type} answered ${res.status}`);
      }
      data = Buffer.from(await res.arrayBuffer());
      mimetype ||= (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
    }
    const stored = await media.save(companyId, data, mimetype || undefined);
    const fromUrl = reply.url ? decodeURIComponent(new URL(reply.url).pathname.split("/").pop() ?? "") : "";
    const name = reply.name || fromUrl || `${reply.type}.${EXT_BY_MIME[stored.mimetype] ?? "bin"}`;
    ready.push({ body: reply.caption ?? "", media: { path: stored.path, mimetype: stored.mimetype, name } });
  }
  return ready;
}

type TicketRow = NonNullable<Awaited<ReturnType<typeof lockTicket>>>;

/** The ticket still waits for the bot: pending, no agent took it. */
export const waitsForBot = (t: TicketRow | null): t is TicketRow =>
  t !== null && t.status === "pending" && t.userId === null;

/**
 * Runs `work` on the ticket as it is now, while the turn `version` of the bot `binding` is still the
 * session's latest and no agent wrote since it started: else nothing happens (answers false).
 */
export async function whileBotsTurn(
  db: Db,
  bus: EventBus,
  ids: { companyId: number; ticketId: number },
  binding: string,
  version: number,
  work: (tx: Tx, raise: Raise, t: TicketRow) => Promise<void>,
): Promise<boolean> {
  return inTransaction(db, bus, async (tx, raise) => {
    const t = await lockTicket(tx, ids.companyId, ids.ticketId);
    const s = await q.lockSession(tx, ids.companyId, ids.ticketId);
    if (!waitsForBot(t) || !s || s.binding !== binding || s.status !== "active" || s.version !== version)
      return false;
    if (await q.agentWroteSince(tx, ids.companyId, ids.ticketId, s.startedAt)) return false;
    await work(tx, raise, t);
    return true;
  });
}

/** Says one prepared reply as the bot. */
export async function sayReply(tx: Tx, raise: Raise, t: TicketRow, reply: ReadyReply) {
  await botSays(tx, raise, t, reply.body, reply.media);
}

/**
 * The bot stops on the ticket (`reason` kept on its session) and people take it: a transfer's queue
 * and/or user when they are the company's (anything else is ignored), a prompt's queue on its
 * hand-over, else the queue it is in; waiting (pending) either way, or closed on `close`. The queue
 * menu does not start over on it. A ticket an agent took meanwhile only has the session stopped.
 */
export async function stopBot(
  db: Db,
  bus: EventBus,
  ids: { companyId: number; ticketId: number },
  binding: Binding,
  reason: string,
  action: BotAction | undefined,
  at: Date,
): Promise<void> {
  const { companyId, ticketId } = ids;
  await inTransaction(db, bus, async (tx, raise) => {
    const t = await lockTicket(tx, companyId, ticketId);
    const s = await q.lockSession(tx, companyId, ticketId);
    if (s && s.binding === binding.key)
      await q.updateSession(tx, companyId, ticketId, {
        status: "stopped",
        stopReason: reason,
        choices: null,
        version: s.version + 1,
        updatedAt: at,
      });
    if (t === null) return;
    const detach = { useIntegration: false, integrationId: null, promptId: null, chatbot: false };
    if (t.status !== "pending" || t.userId !== null) {
      if (t.useIntegration) await updateTicketRow(tx, companyId, ticketId, detach);
      return;
    }
    if (action?.type === "close") {
      await updateTicketRow(tx, companyId, ticketId, detach);
      await closeTicket(tx, raise, { ...t, ...detach }, at);
      return;
    }
    // A prompt answers for its queue: a ticket it hands over without one goes there.
    const own = binding.kind === "prompt" ? binding.prompt.queueId : null;
    let queueId = t.queueId ?? (own !== null && (await q.queueExists(tx, companyId, own)) ? own : null);
    let userId: number | null = null;
    if (action?.type === "transfer") {
      if (action.queueId && (await q.queueExists(tx, companyId, action.queueId))) queueId = action.queueId;
      if (action.userId && (await q.userExists(tx, companyId, action.userId))) userId = action.userId;
    }
    await updateTicketRow(tx, companyId, ticketId, { ...detach, queueId, userId, updatedAt: at });
    if (queueId !== t.queueId) await track(tx, { ...t, queueId }, { queueId, queuedAt: at }, at);
    await saveBotState(tx, t, { stage: "done", optionId: null, invalidSent: false }, at);
    raise({
      type: "ticket.saved",
      companyId,
      ticket: (await loadTicket(tx, companyId, ticketId))!,
      previous: { queueId: t.queueId, userId: t.userId },
    });
  });
}
