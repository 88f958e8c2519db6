import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../../config.js";
import type { Db } from "../../../db/client.js";
import { type EventBus, inTransaction } from "../../../events/bus.js";
import type { TokenService } from "../../../http/tokens.js";
import type { Outbound } from "../../../lib/outbound.js";
import type { MediaStore } from "../../../storage/media.js";
import { RetryLater } from "../../../jobs/runner.js";
import { botSays } from "../menu/botMessages.js";
import { type ConnectionRow, type TurnContext, lockTicket, updateTicketRow } from "../menu/queries.js";
import { type Binding, type OpenSecret, activeBinding } from "./bindings.js";
import type { BotAdapter, BotContext, BotInput, BotKind, BotMedia, BotOutcome } from "./contract.js";
import { prepareReplies, sayReply, stopBot, waitsForBot, whileBotsTurn } from "./apply.js";
import { dialogflowAdapter } from "./dialogflow.js";
import { signedMediaUrl } from "./mediaLink.js";
import { promptAdapter } from "./prompt.js";
import * as q from "./queries.js";
import { typebotAdapter } from "./typebot.js";
import { webhookAdapter } from "./webhook.js";

export interface BotRunnerDeps {
  db: Db;
  bus: EventBus;
  now: () => Date;
  media: MediaStore;
  tokens: Pick<TokenService, "keyedHash">;
  config: Pick<
    Config,
    | "BOT_TIMEOUT_MS"
    | "PUBLIC_URL"
    | "PORT"
    | "OPENAI_BASE_URL"
    | "OPENAI_MODEL"
    | "OPENAI_TRANSCRIPTION_MODEL"
    | "GOOGLE_TOKEN_URL"
    | "DIALOGFLOW_API_URL"
    | "AZURE_TTS_URL"
  >;
  /** The app's one guarded client: every request of a bot (its service, the files its replies name). */
  outbound: Outbound;
  openSecret: OpenSecret;
  log: FastifyBaseLogger;
  poke: () => void;
  /** Shows "typing…" to the customer before a reply (a channel action on the connection). */
  typing?: (ids: { companyId: number; ticketId: number; whatsappId: number }) => Promise<void>;
}

export interface BotRunner {
  /**
   * The bot's turn on a customer's message of a waiting ticket: true when a bot serves the ticket
   * (it answered, joined this message into an earlier turn, or handed the ticket over), false when
   * no bot does and the queue menu goes on.
   */
  turn(turn: TurnContext, connection: ConnectionRow): Promise<boolean>;
}

const MEDIA_KIND: Record<string, BotMedia["kind"]> = { image: "image", audio: "audio", video: "video" };

/** What a claimed turn carries to the bot. */
interface Claim {
  version: number;
  input: BotInput;
  externalId: string | null;
  firstMessageId: number;
  /** Said before the bot is asked (the restart message). */
  preface: string | null;
}

type ClaimResult =
  | { kind: "turn"; claim: Claim }
  | { kind: "say"; version: number; text: string }
  | { kind: "stop"; reason: string }
  | { kind: "none" }
  | { kind: "notOurs" };

export function createBotRunner(deps: BotRunnerDeps): BotRunner {
  const { db, bus, now, log, config, outbound } = deps;
  const adapters: Record<BotKind, BotAdapter<never>> = {
    typebot: typebotAdapter,
    n8n: webhookAdapter,
    webhook: webhookAdapter,
    // The endpoints are read at each turn (the configuration is the one source of them).
    dialogflow: dialogflowAdapter(() => ({
      tokenUrl: config.GOOGLE_TOKEN_URL,
      apiUrl: config.DIALOGFLOW_API_URL,
    })),
    prompt: promptAdapter(() => ({
      openaiUrl: config.OPENAI_BASE_URL,
      model: config.OPENAI_MODEL,
      transcriptionModel: config.OPENAI_TRANSCRIPTION_MODEL,
      azureTtsUrl: config.AZURE_TTS_URL,
    })),
  };
  const publicUrl = () => config.PUBLIC_URL || `http://127.0.0.1:${config.PORT}`;

  /**
   * Claims the turn: the customer's messages not yet handed to the bot, joined (messages written
   * while an earlier turn was thinking arrive here together, once). The session's version grows, so
   * an older turn still computing never sends its reply. Keywords, expiry and what the bot cannot
   * take are decided here.
   */
  async function claim(
    ids: { companyId: number; ticketId: number },
    binding: Binding,
    messageId: number,
  ): Promise<ClaimResult> {
    const at = now();
    return inTransaction(db, bus, async (tx) => {
      const t = await lockTicket(tx, ids.companyId, ids.ticketId);
      if (!waitsForBot(t)) return { kind: "none" };
      const s = await q.lockSession(tx, ids.companyId, ids.ticketId);
      const same = s !== null && s.binding === binding.key;
      if (same && s.status === "stopped") return { kind: "notOurs" };
      if (same && (await q.agentWroteSince(tx, ids.companyId, ids.ticketId, s.startedAt)))
        return { kind: "stop", reason: "agent" };
      const expires = binding.rules.expiresMinutes;
      const expired = same && expires > 0 && at.getTime() - s.lastCustomerAt.getTime() >= expires * 60_000;
      const pending = await q.customerMessagesAfter(
        tx,
        ids.companyId,
        ids.ticketId,
        same ? s.lastMessageId : messageId - 1,
      );
      if (pending.length === 0) return { kind: "none" }; // joined into an earlier turn
      // A customer's file still downloading (modules/inbound/mediaJob.ts): the turn waits for it, so the
      // bot gets the photo or the voice note, not an empty message.
      if (pending.some((m) => m.mediaStatus === "pending"))
        throw new RetryLater("a customer's file is still downloading", 2);
      const text = pending
        .map((m) => m.body.trim())
        .filter(Boolean)
        .join("\n");
      const word = text.trim().toLowerCase();
      const version = (s?.version ?? 0) + 1;
      const rules = binding.rules;
      const restart = !!rules.restartKeyword.trim() && word === rules.restartKeyword.trim().toLowerCase();
      const fresh = !same || expired || restart;
      const lastMessageId = pending[pending.length - 1]!.id;
      await q.saveSession(tx, ids.companyId, ids.ticketId, {
        binding: binding.key,
        status: "active",
        stopReason: null,
        externalId: fresh ? null : s!.externalId,
        choices: fresh ? null : s!.choices,
        lastMessageId,
        version,
        startedAt: fresh ? at : s!.startedAt,
        lastCustomerAt: at,
        updatedAt: at,
      });
      if (fresh && !t.useIntegration)
        await updateTicketRow(tx, ids.companyId, ids.ticketId, {
          useIntegration: true,
          chatbot: true,
          integrationId: binding.kind === "prompt" ? null : binding.integration.id,
          promptId: binding.kind === "prompt" ? binding.prompt.id : null,
        });
      if (!!rules.finishKeyword.trim() && word === rules.finishKeyword.trim().toLowerCase())
        return { kind: "stop", reason: "finish" };

      // A numbered answer to the choices offered last is the chosen option's text.
      let said = text;
      const choices = fresh ? null : s!.choices;
      if (choices?.length && /^\d+$/.test(word)) {
        const n = Number(word);
        if (n >= 1 && n <= choices.length) said = choices[n - 1]!;
      }
      const media: BotMedia[] = [];
      const audio: BotInput["audio"] = [];
      for (const m of pending) {
        if (!m.mediaPath) continue;
        const kind = MEDIA_KIND[m.mediaType] ?? "file";
        media.push({
          kind,
          url: signedMediaUrl(deps.tokens, publicUrl(), ids.companyId, m.mediaPath, at),
          mimetype: m.mediaMime ?? "application/octet-stream",
          name: m.mediaName ?? m.mediaPath.split("/").pop()!,
        });
        if (kind === "audio" && binding.kind === "prompt") {
          const data = await deps.media.read(ids.companyId, m.mediaPath);
          if (data)
            audio.push({ data, mimetype: m.mediaMime ?? "audio/ogg", name: m.mediaName ?? "audio.ogg" });
        }
      }
      const input: BotInput = { start: fresh, text: restart ? "" : said, media: restart ? [] : media, audio };
      const adapter = adapters[binding.kind];
      const takes = input.text.trim() || (adapter.takesMedia && media.length > 0) || restart;
      if (!takes) {
        // Media, a sticker, a location... what this bot cannot take.
        return rules.unknownMessage.trim()
          ? { kind: "say", version, text: rules.unknownMessage }
          : { kind: "none" };
      }
      return {
        kind: "turn",
        claim: {
          version,
          input,
          externalId: fresh ? null : s!.externalId,
          firstMessageId: pending[0]!.id,
          preface: restart && rules.restartMessage.trim() ? rules.restartMessage : null,
        },
      };
    });
  }

  /** Asks the bot, within the deadline: anything thrown (timeout included) is the caller's hand-over. */
  async function ask(
    binding: Binding,
    turn: TurnContext,
    connection: ConnectionRow,
    c: Claim,
    signal: AbortSignal,
  ): Promise<BotOutcome> {
    const { ticket } = turn;
    const parties = await q.partiesOf(db, ticket.companyId, ticket.id);
    if (!parties) throw new Error("the ticket is gone");
    const ctx: BotContext = {
      companyId: ticket.companyId,
      ticket: { id: ticket.id, uuid: parties.uuid, queueId: ticket.queueId, status: ticket.status },
      contact: { id: parties.contactId, name: parties.contactName, number: parties.contactNumber },
      connection: { id: connection.id, name: connection.name, number: connection.number },
      company: { id: ticket.companyId, name: parties.companyName },
      externalId: c.externalId,
      history: (limit) => q.historyBefore(db, ticket.companyId, ticket.id, c.firstMessageId, limit),
      signal,
      outbound,
    };
    const config = binding.kind === "prompt" ? binding.prompt : binding.integration;
    const adapter = adapters[binding.kind] as BotAdapter<typeof config>;
    const aborted = new Promise<never>((_, reject) => {
      signal.addEventListener("abort", () => reject(new Error("the bot did not answer in time")), {
        once: true,
      });
    });
    return Promise.race([adapter.turn(config, c.input, ctx), aborted]);
  }

  return {
    async turn(turn, connection) {
      const { ticket, message } = turn;
      if (!message) return false;
      const ids = { companyId: ticket.companyId, ticketId: ticket.id };
      const binding = await activeBinding(
        db,
        deps.openSecret,
        ticket.companyId,
        ticket,
        connection,
        turn.queues.map((x) => x.id),
      );
      if (!binding) return false;
      const claimed = await claim(ids, binding, message.id);
      switch (claimed.kind) {
        case "notOurs":
          return false;
        case "none":
          return true;
        case "stop":
          await stopBot(db, bus, ids, binding, claimed.reason, { type: "end" }, now());
          return true;
        case "say":
          await whileBotsTurn(db, bus, ids, binding.key, claimed.version, async (tx, raise, t) => {
            await botSays(tx, raise, t, claimed.text);
          });
          deps.poke();
          return true;
      }
      const c = claimed.claim;
      if (c.preface) {
        await whileBotsTurn(db, bus, ids, binding.key, c.version, async (tx, raise, t) => {
          await botSays(tx, raise, t, c.preface!);
        });
        deps.poke();
      }
      const signal = AbortSignal.timeout(config.BOT_TIMEOUT_MS);
      let outcome: BotOutcome;
      let ready: Awaited<ReturnType<typeof prepareReplies>>;
      try {
        outcome = await ask(binding, turn, connection, c, signal);
        ready = await prepareReplies(outbound, deps.media, ticket.companyId, outcome.replies, signal);
      } catch (err) {
        // Whatever went wrong stays in the log: the customer is simply handed to people.
        log.warn({ err, ticketId: ticket.id, bot: binding.key }, "bot failed: the ticket goes to people");
        await stopBot(db, bus, ids, binding, "error", undefined, now());
        return true;
      }
      if (outcome.usage && binding.kind === "prompt")
        await q.recordTokens(db, ticket.companyId, binding.prompt.id, outcome.usage, now());
      const offered = [...ready].reverse().find((r) => r.choices)?.choices ?? null;
      const kept = await whileBotsTurn(db, bus, ids, binding.key, c.version, async (tx) => {
        await q.updateSession(tx, ids.companyId, ids.ticketId, {
          externalId: outcome.externalId ?? c.externalId,
          choices: offered,
          updatedAt: now(),
        });
      });
      if (!kept) return true; // an agent took over, or a newer turn owns the session
      for (const [i, reply] of ready.entries()) {
        if (i > 0 && binding.rules.delayMs > 0) await sleep(binding.rules.delayMs);
        if (deps.typing && ticket.whatsappId !== null)
          await deps.typing({ ...ids, whatsappId: ticket.whatsappId }).catch(() => undefined);
        const said = await whileBotsTurn(db, bus, ids, binding.key, c.version, (tx, raise, t) =>
          sayReply(tx, raise, t, reply),
        );
        deps.poke();
        if (!said) return true;
      }
      if (outcome.action) {
        const reason = outcome.action.type;
        const still = await whileBotsTurn(db, bus, ids, binding.key, c.version, async () => undefined);
        if (still) await stopBot(db, bus, ids, binding, reason, outcome.action, now());
      }
      return true;
    },
  };
}
