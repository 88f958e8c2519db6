import { type ApiSendAnswer, type ApiSendInput, IDEMPOTENCY_KEY } from "@atende/contracts";
import ipaddr from "ipaddr.js";
import { normalise } from "../../lib/outboundAddress.js";
import { normalizeNumber } from "../../channels/numbers.js";
import { ChannelError } from "../../channels/provider.js";
import type { SessionManager } from "../../channels/sessions.js";
import { saveContact } from "../inbound/queries.js";
import type { Tx } from "../../db/client.js";
import type { Deps } from "../../deps.js";
import { type Raise, inTransaction } from "../../events/bus.js";
import { companyLockout } from "../../http/companyStanding.js";
import { AppError } from "../../http/errors.js";
import { requirePlan } from "../../http/plan.js";
import { limiterStore } from "../../http/rateLimit.js";
import type { SecretBox } from "../../lib/secretBox.js";
import type { JobRunner } from "../../jobs/runner.js";
import { presentContacts } from "../contacts/queries.js";
import { quotableMessageId } from "../messages/queries.js";
import { queueOutbound } from "../messages/outbound.js";
import type { UploadedFile } from "../messages/service.js";
import { openOrFindLiveTicket } from "../tickets/openLive.js";
import { loadTicket, setTicketClosed, track } from "../tickets/queries.js";
import { companyQueueIds } from "../queues/queries.js";
import { findUser } from "../users/queries.js";
import { prepareOutgoingFiles } from "../messages/outgoingMedia.js";
import { findWhatsappRow } from "../whatsapps/queries.js";
import { onlyTemplateMayGo } from "../cloudTemplates/window.js";
import { GENERATED_TOKEN_LENGTH, connectionTokenHash } from "../whatsapps/tokens.js";
import * as q from "./queries.js";

export type MessagesApiDeps = Pick<Deps, "db" | "bus" | "now" | "media" | "config"> & {
  jobs: Pick<JobRunner, "poke">;
  sessions: Pick<SessionManager, "session">;
  secrets: SecretBox;
};

/**
 * Failed token authentications per client address (an IPv6 one by its /64, which one client
 * holds whole): past `max` in the window, a wrong token from that address answers 429 until the
 * window ends, and so does a right token from before the hashes (a short one may be weak: a guess
 * that finally hits must not be told so). A right generated token (256 random bits, not guessable)
 * is let through, so a stale client behind the same NAT or proxy cannot lock the good one out. A
 * success never resets the count, so a caller holding one good token cannot interleave it with
 * guesses; every failure counts, blocked or not.
 */
export const API_TOKEN_FAILURES = { max: 20, windowSeconds: 600 } as const;

/** The key failed tokens count under: an IPv4 address (IPv4-mapped too) itself, an IPv6 one by its /64. */
export function failureKey(ip: string): string {
  const bare = normalise(ip);
  if (!ipaddr.isValid(bare)) return `ip:${ip}`;
  const address = ipaddr.process(bare);
  if (address.kind() === "ipv4") return `ip:${address.toString()}`;
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `ip6:${prefix.join(":")}::/64`;
}

/** The token's connection and company: who is calling, decided by the token alone. */
export interface ApiCaller {
  companyId: number;
  whatsappId: number;
}

export function createMessagesApiService(deps: MessagesApiDeps) {
  const { db, bus, now, media, jobs, sessions, secrets } = deps;
  const limits = limiterStore(deps.config, db, () => now().getTime());
  const failures = limits.limiter(
    "api-token-failures",
    API_TOKEN_FAILURES.max,
    API_TOKEN_FAILURES.windowSeconds * 1000,
  );

  /** Asks WhatsApp through the connection's own session; a session elsewhere (or none) lets the send job tell. */
  async function checkOnWhatsapp(whatsappId: number, number: string) {
    const session = sessions.session(whatsappId);
    if (!session) return;
    try {
      if (!(await session.checkNumber(number)))
        throw new AppError("ERR_WAPP_INVALID_CONTACT", { invalido: true });
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof ChannelError && err.code === "ERR_WAPP_NOT_INITIALIZED") return;
      throw new AppError("ERR_WAPP_CHECK_CONTACT");
    }
  }

  /** The contact's live ticket on the connection, else a new one: the agent's (open) or waiting (pending). */
  async function ticketFor(
    tx: Tx,
    raise: Raise,
    caller: ApiCaller,
    contact: { id: number },
    input: ApiSendInput,
  ) {
    const userId = input.userId ?? null;
    const found = await openOrFindLiveTicket(
      tx,
      raise,
      caller.companyId,
      { contactId: contact.id, whatsappId: caller.whatsappId },
      { userId, queueId: input.queueId ?? null, status: userId ? "open" : "pending" },
      now(),
    );
    // The contact was saved in this very transaction.
    if (!found) throw new AppError("ERR_NO_CONTACT_FOUND");
    return found.ticket;
  }

  return {
    /**
     * The caller of a bearer token: the connection whose token it is, found by the token's keyed
     * hash. A missing, empty or unknown token, or one rotated away, answers 401
     * ERR_API_TOKEN_INVALID and counts against the client's address (API_TOKEN_FAILURES; over it,
     * 429 ERR_TOO_MANY_REQUESTS with `retryAfter`, for a right token from before the hashes too; a
     * right generated one still passes); a company locked out, its lockout; a plan without the
     * external API, 403 ERR_PLAN_FEATURE_DISABLED.
     */
    async authenticate(token: string | null, ip: string): Promise<ApiCaller> {
      const key = failureKey(ip);
      const wait = await failures.blockedFor(key);
      const row =
        token && token.length <= 512
          ? await q.connectionByTokenHash(db, connectionTokenHash(secrets, token))
          : null;
      if (!row) await failures.hit(key);
      const generated = row !== null && token!.length >= GENERATED_TOKEN_LENGTH;
      if (wait > 0 && !generated) throw new AppError("ERR_TOO_MANY_REQUESTS", { retryAfter: wait });
      if (!row) throw new AppError("ERR_API_TOKEN_INVALID");
      const lock = await companyLockout(db, row.companyId, now());
      if (lock) throw lock;
      await requirePlan(db, row.companyId, "useExternalApi");
      return { companyId: row.companyId, whatsappId: row.id };
    },

    /** A header's Idempotency-Key, checked (undefined when not sent). */
    idempotencyKey(header: string | string[] | undefined): string | undefined {
      if (header === undefined) return undefined;
      const key = Array.isArray(header) ? header[0] : header;
      if (!key || !IDEMPOTENCY_KEY.test(key)) throw new AppError("ERR_API_IDEMPOTENCY_KEY_INVALID");
      return key;
    },

    /**
     * Sends text or files to a number through the caller's connection, as an agent's send does (the
     * durable outbound queue, in order, with acks), into the contact's live ticket there or a new one.
     * With an Idempotency-Key, a repeated call answers the first call's answer and sends nothing.
     */
    async send(
      caller: ApiCaller,
      input: ApiSendInput,
      files: UploadedFile[] = [],
      idempotencyKey?: string,
    ): Promise<ApiSendAnswer> {
      const { companyId, whatsappId } = caller;
      if (idempotencyKey) {
        const answered = await q.idempotentAnswer(db, companyId, whatsappId, idempotencyKey);
        if (answered) return answered as unknown as ApiSendAnswer;
      }
      const number = normalizeNumber(input.number);
      if (!/^\d{8,15}$/.test(number)) throw new AppError("ERR_WAPP_INVALID_CONTACT", { invalido: true });
      const text = input.body.trim() ? input.body : "";
      if (!text && files.length === 0) throw new AppError("ERR_EMPTY_MESSAGE");
      if (input.queueId && (await companyQueueIds(db, companyId, [input.queueId])).length !== 1)
        throw new AppError("ERR_API_QUEUE_NOT_FOUND");
      if (input.userId && !(await findUser(db, companyId, input.userId)))
        throw new AppError("ERR_API_USER_NOT_FOUND");
      await checkOnWhatsapp(whatsappId, number);
      // Audio as a voice note, and the Cloud API's types and sizes, as an agent's own send.
      const connection = await findWhatsappRow(db, companyId, whatsappId);
      const ready = await prepareOutgoingFiles(files, connection?.provider ?? null, media);
      const stored: { path: string; mimetype: string; name: string }[] = [];
      for (const f of ready)
        stored.push({ ...(await media.save(companyId, f.data, f.mimetype)), name: f.filename });

      const outcome = await inTransaction(db, bus, async (tx, raise) => {
        if (
          idempotencyKey &&
          !(await q.claimIdempotencyKey(tx, companyId, whatsappId, idempotencyKey, now()))
        )
          return null; // a call with this key committed first: its answer is read below
        const saved = await saveContact(tx, "number", {
          companyId,
          name: number,
          number,
          lid: null,
          isGroup: false,
          at: now().toISOString(),
        });
        if (saved.changed) {
          const [contact] = await presentContacts(tx, companyId, [saved.contact]);
          raise({
            type: "contact.saved",
            companyId,
            action: saved.created ? "create" : "update",
            contact: contact!,
          });
        }
        // The Cloud API takes free-form messages only within 24 hours of the customer's last one.
        if (await onlyTemplateMayGo(tx, companyId, saved.contact.id, connection, now()))
          throw new AppError("ERR_WAPP_24H_WINDOW");
        const ticket = await ticketFor(tx, raise, caller, saved.contact, input);
        let quotedMsgId: number | null = null;
        if (input.quotedMsgId) {
          quotedMsgId = await quotableMessageId(tx, companyId, input.quotedMsgId, saved.contact.id);
          if (!quotedMsgId) throw new AppError("ERR_API_QUOTED_NOT_FOUND");
        }
        const base = { companyId, ticketId: ticket.id, userId: input.userId ?? null, at: now() };
        const ids: number[] = [];
        if (stored.length === 0)
          ids.push(await queueOutbound(tx, raise, { ...base, body: text, quotedMsgId }));
        for (const [i, file] of stored.entries()) {
          ids.push(
            await queueOutbound(tx, raise, {
              ...base,
              // The body is the first medium's caption.
              body: i === 0 ? text : "",
              quotedMsgId: i === 0 ? quotedMsgId : null,
              media: file,
            }),
          );
        }
        if (input.closeTicket) {
          await setTicketClosed(tx, companyId, ticket.id, now());
          await track(tx, ticket, { finishedAt: now() }, now());
          raise({
            type: "ticket.saved",
            companyId,
            ticket: (await loadTicket(tx, companyId, ticket.id))!,
            previous: { queueId: ticket.queueId, userId: ticket.userId, status: ticket.status as "open" },
          });
        }
        const answer: ApiSendAnswer = {
          mensagem: "Mensagem enviada",
          messageId: ids[0]!,
          messageIds: ids,
          ticketId: ticket.id,
          ticketUuid: ticket.uuid,
          contactId: saved.contact.id,
        };
        if (idempotencyKey)
          await q.storeIdempotentAnswer(tx, companyId, whatsappId, idempotencyKey, { ...answer });
        return answer;
      });
      if (!outcome) {
        const answered = await q.idempotentAnswer(db, companyId, whatsappId, idempotencyKey!);
        return answered as unknown as ApiSendAnswer;
      }
      jobs.poke();
      return outcome;
    },

    /** Lets go of the failure counters' Redis connection, if any. */
    close: () => limits.close(),
  };
}

export type MessagesApiService = ReturnType<typeof createMessagesApiService>;
