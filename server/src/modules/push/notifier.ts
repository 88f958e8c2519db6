import webpush from "web-push";
import {
  NOTIFICATION_PREVIEW_SETTING,
  PUSH_LIMITS,
  type PushPayload,
  type TicketViewer,
  can,
  hearsCustomerMessage,
  hearsTicketArrival,
} from "@atende/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import type { DomainEvent } from "../../events/bus.js";
import { companyLockout } from "../../http/companyStanding.js";
import { type Outbound, OutboundError } from "../../lib/outbound.js";
import { companySetting } from "../settings/queries.js";
import * as q from "./queries.js";
import { type PushTexts, cut, langOf, pushTexts } from "./texts.js";
import type { Vapid } from "./vapid.js";

/**
 * Sends Web Push notifications for what the in-app alerts ring for (contracts' notifications.ts):
 * a customer's message on a ticket the user may see that is waiting or theirs, a waiting ticket that
 * came into their queues, a colleague's internal chat message (a mention comes as one). Each device
 * gets its own payload, in its language, encrypted for it alone (RFC 8291) and signed with the
 * server's VAPID key (RFC 8292), sent through the guarded outbound client: an endpoint is an
 * address a browser gave, so it is judged like any typed URL. A device whose push service answers
 * 404 or 410 (unsubscribed, expired), or whose address may not be called, is forgotten.
 *
 * It also forgets the devices of sessions that end: a logout, a login elsewhere (one session per
 * user), a password change, a stolen refresh token. The app registers the device again at its next
 * login there.
 *
 * Registered as a listener (after commit): sending never holds the event bus; `settled()` waits for
 * what was started.
 */
export interface PushNotifier {
  heard(event: DomainEvent): void | Promise<void>;
  /** A device was registered in the company: it is heard from now on, on this instance at once. */
  registered(companyId: number): void;
  /** Resolves once every push started so far got its answer (the app's close). */
  settled(): Promise<void>;
}

/** How long a push service keeps a push for a device that is off: past it, the app itself tells. */
const TTL_SECONDS = 6 * 3600;
/** Sends in flight at once, across companies; the rest wait their turn. */
const CONCURRENCY = 8;
/** Pushes waiting past this many are dropped (a stuck push service must not eat the memory). */
const MAX_WAITING = 2000;
/** "Nobody in this company has a device": believed this long (devices registered elsewhere count after it). */
const NO_DEVICES_MS = 10_000;
/** A push service answers with little: a status and a short text. */
const ANSWER_MAX_BYTES = 16 * 1024;
const SEND_TIMEOUT_MS = 10_000;

interface Delivery {
  companyId: number;
  device: q.PushDevice;
  payload: PushPayload;
  urgency: "normal" | "high";
  /** Pushes of one topic replace each other while waiting at the push service (a ticket's). */
  topic: string;
}

const viewerOf = (d: q.PushDevice): TicketViewer => ({
  userId: d.userId,
  profile: d.profile,
  queueIds: d.queueIds,
  allTicket: d.allTicket,
});

export function createPushNotifier(deps: {
  db: Db;
  outbound: Outbound;
  vapid: Vapid;
  log: FastifyBaseLogger;
  now: () => Date;
}): PushNotifier {
  const { db, outbound, vapid, log, now } = deps;
  const log_ = log.child({ module: "push" });
  const quiet = new Map<number, number>();
  const running = new Set<Promise<void>>();
  const waiting: Delivery[] = [];
  let sending = 0;

  /** Work started now and awaited by settled(); its failure is logged, never thrown at the bus. */
  function track(work: () => Promise<void>) {
    const task = work()
      .catch((err: unknown) => log_.error({ err }, "push: notifying failed"))
      .finally(() => running.delete(task));
    running.add(task);
  }

  /** Whether the company is known to have no device: nothing to push, not even a promise to make. */
  function knownQuiet(companyId: number): boolean {
    const until = quiet.get(companyId);
    return until !== undefined && until > Date.now();
  }

  /** The company's devices (of `userIds`), or none without asking while it is known to have none. */
  async function devicesOf(companyId: number, userIds?: number[]): Promise<q.PushDevice[]> {
    if (knownQuiet(companyId)) return [];
    const devices = await q.companyDevices(db, companyId, now(), userIds);
    if (devices.length === 0 && !userIds) quiet.set(companyId, Date.now() + NO_DEVICES_MS);
    return devices;
  }

  /** Whether the company's users may hear anything now (not inactive, not past due). */
  async function reachable(companyId: number): Promise<boolean> {
    return (await companyLockout(db, companyId, now())) === null;
  }

  async function previewOn(companyId: number): Promise<boolean> {
    return (await companySetting(db, companyId, NOTIFICATION_PREVIEW_SETTING)) !== "disabled";
  }

  /** One payload per device, in its language; nothing for devices of users `hears` leaves out. */
  async function notify(
    companyId: number,
    devices: q.PushDevice[],
    hears: (device: q.PushDevice) => boolean,
    build: (texts: PushTexts, preview: boolean) => Omit<PushPayload, "lang">,
    options: { urgency: Delivery["urgency"]; topic: string },
  ) {
    const targets = devices.filter(hears);
    if (targets.length === 0 || !(await reachable(companyId))) return;
    const preview = await previewOn(companyId);
    for (const device of targets) {
      const lang = langOf(device.language);
      const built = build(pushTexts(lang), preview);
      const payload: PushPayload = {
        ...built,
        title: cut(built.title, PUSH_LIMITS.titleMax),
        body: cut(built.body, PUSH_LIMITS.bodyMax),
        lang,
      };
      enqueue({ companyId, device, payload, ...options });
    }
  }

  function enqueue(delivery: Delivery) {
    if (waiting.length >= MAX_WAITING) {
      log_.warn({ companyId: delivery.companyId }, "push: too many waiting, one dropped");
      return;
    }
    waiting.push(delivery);
    pump();
  }

  function pump() {
    while (sending < CONCURRENCY && waiting.length > 0) {
      const next = waiting.shift()!;
      sending++;
      track(() =>
        send(next).finally(() => {
          sending--;
          pump();
        }),
      );
    }
  }

  /** One push: encrypted and signed by web-push, carried by the guarded client. */
  async function send({ companyId, device, payload, urgency, topic }: Delivery): Promise<void> {
    const details = webpush.generateRequestDetails(
      { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: TTL_SECONDS,
        urgency,
        topic,
      },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) {
      // The client sets the length of what it sends itself.
      if (name.toLowerCase() !== "content-length") headers[name] = String(value);
    }
    // Logged by origin only: the endpoint's path is the device's address, a capability.
    const where = new URL(device.endpoint).origin;
    let status: number;
    try {
      const res = await outbound.fetch(details.endpoint, {
        method: details.method,
        headers,
        body: details.body as Buffer,
        redirects: 0,
        timeoutMs: SEND_TIMEOUT_MS,
        maxBytes: ANSWER_MAX_BYTES,
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      if (err instanceof OutboundError) {
        // An address the server may not call (or no URL at all) never becomes one: forgotten.
        log_.warn({ companyId, where, reason: err.code }, "push: endpoint refused, device forgotten");
        await q.deleteDevice(db, companyId, device.id);
        return;
      }
      log_.warn({ companyId, where, err: (err as Error).message }, "push: push service unreachable");
      return;
    }
    if (status === 404 || status === 410) {
      await q.deleteDevice(db, companyId, device.id);
      log_.info({ companyId, where, status }, "push: subscription gone, device forgotten");
    } else if (status < 200 || status >= 300) {
      log_.warn({ companyId, where, status }, "push: push service refused a push");
    }
  }

  function onMessage(event: Extract<DomainEvent, { type: "message.saved" }>) {
    const { companyId, message, ticket, contact } = event;
    // What no one hears is left before any query: most messages (the agents' own, the bot's).
    if (event.action !== "create" || message.fromMe || ticket.isGroup) return;
    if (message.mediaType === "reactionMessage" || knownQuiet(companyId)) return;
    track(async () => {
      const devices = await devicesOf(companyId);
      await notify(
        companyId,
        devices,
        (d) => hearsCustomerMessage(viewerOf(d), event),
        (texts, preview) => ({
          title: contact.name || contact.number,
          body: preview
            ? message.body || (message.mediaType === "chat" ? texts.newMessage : texts.media)
            : texts.newMessage,
          url: `/tickets/${ticket.uuid}`,
          tag: `ticket-${ticket.uuid}`,
          key: `message-${message.id}`,
        }),
        { urgency: "high", topic: `ticket-${ticket.id}` },
      );
    });
  }

  function onTicket(event: Extract<DomainEvent, { type: "ticket.saved" }>) {
    const { companyId, ticket, previous } = event;
    if (!previous || ticket.status !== "pending" || ticket.userId !== null || ticket.isGroup) return;
    if (previous.queueId === ticket.queueId && previous.userId === null) return;
    track(async () => {
      const devices = await devicesOf(companyId);
      await notify(
        companyId,
        devices,
        (d) => hearsTicketArrival(viewerOf(d), ticket, previous),
        (texts, preview) => {
          const who = ticket.contact.name || ticket.contact.number;
          return {
            title: texts.waiting(ticket.queue?.name ?? ""),
            body: preview && ticket.lastMessage ? `${who}: ${ticket.lastMessage}` : who,
            url: `/tickets/${ticket.uuid}`,
            tag: `ticket-${ticket.uuid}`,
            key: `arrival-${ticket.id}-${ticket.queueId ?? 0}`,
          };
        },
        { urgency: "high", topic: `ticket-${ticket.id}` },
      );
    });
  }

  /**
   * A missed service-level target (once per ticket and target): the queue's agents and whoever sees
   * every queue (the admins), as the `ticketSla` socket event; nobody of another queue.
   */
  function onSlaBreach(event: Extract<DomainEvent, { type: "ticket.slaBreached" }>) {
    const { companyId, ticket, target } = event;
    track(async () => {
      const devices = await devicesOf(companyId);
      await notify(
        companyId,
        devices,
        (d) =>
          can({ profile: d.profile }, "tickets:accessAny") ||
          (ticket.queueId !== null && d.queueIds.includes(ticket.queueId)),
        (texts) => ({
          title: texts.slaBreached(target, ticket.queue?.name ?? ""),
          body: ticket.contact.name || ticket.contact.number,
          url: `/tickets/${ticket.uuid}`,
          tag: `ticket-sla-${ticket.uuid}`,
          key: `sla-${ticket.id}-${target}-${event.dueAt}`,
        }),
        { urgency: "high", topic: `ticket-sla-${ticket.id}` },
      );
    });
  }

  function onChat(event: Extract<DomainEvent, { type: "chat.changed" }>) {
    const { companyId, payload, memberIds } = event;
    if (payload.action !== "new-message") return;
    const { newMessage, chat } = payload;
    const others = memberIds.filter((id) => id !== newMessage.senderId);
    if (others.length === 0) return;
    track(async () => {
      const devices = await devicesOf(companyId, others);
      await notify(
        companyId,
        devices,
        (d) => others.includes(d.userId),
        (texts, preview) => ({
          title: texts.chat(newMessage.sender?.name ?? "", chat.title),
          body: preview ? newMessage.message || newMessage.mediaName || texts.newMessage : texts.newMessage,
          url: `/chats/${chat.uuid}`,
          tag: `chat-${chat.uuid}`,
          key: `chat-message-${newMessage.id}`,
        }),
        { urgency: "normal", topic: `chat-${chat.id}` },
      );
    });
  }

  return {
    heard(event) {
      switch (event.type) {
        case "message.saved":
          return onMessage(event);
        case "ticket.saved":
          return onTicket(event);
        case "chat.changed":
          return onChat(event);
        case "ticket.slaBreached":
          return onSlaBreach(event);
        // Sessions that end take their devices along; awaited, so a login's answer comes after.
        case "session.started":
          return q.deleteEndedSessions(db, event.companyId, event.userId, event.sessionId);
        case "user.sessionsRevoked":
          return q.deleteEndedSessions(db, event.companyId, event.userId, event.keepSessionId);
        case "session.revoked":
          return q.deleteSession(db, event.companyId, event.sessionId);
      }
    },

    registered(companyId) {
      quiet.delete(companyId);
    },

    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
