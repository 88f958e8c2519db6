import type { ConnectionCache } from "./channels/connectionCache.js";
import type { JobRunner } from "./jobs/runner.js";
import type { Chatbot } from "./modules/bots/menu/index.js";
import { botsWithin } from "./modules/bots/runtime/index.js";
import { callsWithin } from "./modules/inbound/calls.js";
import { ticketMessagesWithin } from "./modules/messages/followers.js";
import { inviteWithin } from "./modules/passwordReset/codeMail.js";
import { connectionAlertWithin } from "./modules/whatsapps/alerts.js";
import { settleWithin } from "./modules/schedules/sending.js";
import { campaignAnswersWithin } from "./modules/campaigns/answers.js";
import { serviceLevelsQuietOnInbound, serviceLevelsWithin } from "./modules/serviceLevels/followers.js";
import type { ChatsService } from "./modules/chats/service.js";
import type { PushNotifier } from "./modules/push/notifier.js";
import type { Realtime } from "./realtime/index.js";
import {
  type SubscriptionCache,
  webhookFollower,
  webhooksQuietOnInbound,
} from "./modules/webhooks/dispatch.js";
import type { DomainEvent, EventBus } from "./events/bus.js";

/**
 * Everything that follows an event, in one place. Two kinds:
 * - followers (`bus.within`) run inside the transaction that raised the event, before it commits:
 *   work that must survive a crash, written as durable jobs that exist exactly when their cause does;
 * - listeners (`bus.on`) hear the event after the commit: what only this living instance needs
 *   (sockets, caches, a poke of the job runner). A listener that fails is logged by the bus; the
 *   others still hear the event.
 *
 * What follows `message.saved`:
 * - create, a customer's message: the bot's turn (chatbot, follower), or a declined call's refusal
 *   (inbound/calls.ts, follower);
 * - update, WhatsApp's answer about a schedule's message: the schedule's settling (follower);
 * - create/update, a campaign recipient's answer or its message's fate (campaigns, follower);
 * - create, a message queued for sending: the job runner looks at once (listener);
 * - every one: the sockets of whoever may see its ticket (realtime, listener).
 * What follows tickets, messages, contacts, connection status and `webhook.event`: a delivery job per
 * outbound webhook subscribed to it (webhooks, follower).
 * What follows `user.invited`: the invitation mail's job (passwordReset, follower).
 * What follows `whatsapp.alert` (a connection that needs a person): its admins' mail (whatsapps, follower).
 * What follows `ticketNote.changed` (create): the colleagues it mentions hear it in the internal chat.
 * What follows `ticket.saved` of a waiting ticket an agent took: the bot serving it stops (bots, follower).
 * What follows a ticket command's `ticket.saved`: its automatic message queued (messages, follower),
 * the rating awaited on resolve, or no longer on a close or a reopen (chatbot, follower).
 * What follows `ticket.read`: the read receipts queued (messages, follower).
 * What follows a ticket entering a queue, reopened or closed, and a customer's message on a ticket
 * waiting on them: its service-level clocks started, stopped or resumed, breach jobs armed
 * (serviceLevels, follower, first of all).
 * What follows `ticket.slaBreached`: the queue's agents and admins hear it (realtime) and get a
 * push (push, listener).
 * What follows `ticket.saved`: its timers armed (chatbot, listener: those lost to a crash are armed
 * again at start), the caches, the sockets.
 * What follows a customer's message, a waiting ticket entering a queue and an internal chat message:
 * Web Push to the devices of whoever the in-app alerts would ring for (push, listener, never waited
 * for); a session that ends takes its devices along (push, listener).
 *
 * Answers the function that removes them all (the app's close).
 */
export function registerListeners(
  bus: EventBus,
  parts: {
    jobs: Pick<JobRunner, "poke">;
    chatbot: Pick<Chatbot, "within" | "heard">;
    connections: Pick<ConnectionCache, "heard">;
    sessionChecks: { heard(event: DomainEvent): void };
    now: () => Date;
    realtime: Pick<Realtime, "heard">;
    chats: Pick<ChatsService, "notifyMentions">;
    webhookCache: SubscriptionCache;
    push: Pick<PushNotifier, "heard">;
  },
): () => void {
  const { jobs, chatbot, connections, sessionChecks, realtime, chats, webhookCache, push } = parts;
  const { now } = parts;
  const poke = () => jobs.poke();
  const quiet = () => true;
  const off = [
    // ---- In the transaction. The second argument says the follower writes nothing for a plain
    // inbound batch (events/bus.ts, QuietOnInbound), which may then commit as one statement.
    // The bot's turns on it are queued by that statement itself (inbound/batchQueries.ts).
    // Service levels first: every follower after it, and the sockets, see the ticket's clocks as
    // written (started, stopped, resumed). The quiet statement leaves paused tickets' messages out.
    bus.within(serviceLevelsWithin(now), serviceLevelsQuietOnInbound),
    bus.within(chatbot.within, quiet),
    // A missed call, with calls disabled: its refusal (inbound/calls.ts). Calls are never quiet.
    bus.within(callsWithin(poke), quiet),
    // Acts on a ticket an agent took (ticket.saved with `previous`).
    bus.within(botsWithin(now), quiet),
    // A ticket command's automatic message and an agent's read receipts (messages).
    bus.within(ticketMessagesWithin(poke), quiet),
    // WhatsApp's answers about a schedule's messages (message.saved updates).
    bus.within(settleWithin(poke), quiet),
    // A campaign recipient's answer (confirmation, opt-out) and the fate of its message. The quiet
    // statement leaves out every message a campaign may take as an answer (campaigns/answers.ts).
    bus.within(campaignAnswersWithin(bus, poke, now), quiet),
    // A new user without a password (a new company's first admin) is mailed a code to set one.
    bus.within(inviteWithin(poke), quiet),
    // A connection that needs a person: its admins' mail (whatsapps/alerts.ts; whatsapp.alert only).
    bus.within(connectionAlertWithin(poke), quiet),
    // The company's outbound webhooks subscribed to the event get a delivery each.
    bus.within(webhookFollower(webhookCache, poke), webhooksQuietOnInbound(webhookCache)),

    // ---- After the commit, in this order: caches first, so the listeners after them read fresh rows;
    // the sockets before anything that waits for the database.
    bus.on((event) => {
      connections.heard(event);
      sessionChecks.heard(event);
    }),
    bus.on((event) => realtime.heard(event)),
    bus.on((event) => push.heard(event)),
    bus.on((event) => chatbot.heard(event)),
    bus.on((event) => {
      if (event.type === "ticketNote.changed" && event.payload.action === "create")
        return chats.notifyMentions(event.companyId, event.payload.note, event.ticket);
    }),
    bus.on((event) => {
      // A message queued for sending is picked up at once rather than at the next poll.
      if (
        event.type === "message.saved" &&
        event.action === "create" &&
        event.message.fromMe &&
        event.message.ack === 0
      )
        poke();
    }),
  ];
  return () => off.forEach((remove) => remove());
}
