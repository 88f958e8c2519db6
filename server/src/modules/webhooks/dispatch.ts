import type { WebhookEventName } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { DomainEvent, Follower } from "../../events/bus.js";
import { enqueueJobs } from "../../jobs/runner.js";
import * as q from "./queries.js";

export const WEBHOOK_DELIVERY_JOB = "webhook-delivery";

/** One webhook event a domain event means: its name, the entity it is about, and its data. */
export interface WebhookEvent {
  event: string;
  entity: string;
  data: unknown;
  subscriptionId?: number;
}

/**
 * What outbound webhooks hear of the domain's events. A ticket's first save (its row's createdAt
 * equals updatedAt: written by one statement) is `ticket.created`; a save that moved it to closed,
 * `ticket.closed`; any other, `ticket.updated`. Messages keep their ticket's order.
 */
export function webhookEventsOf(event: DomainEvent): WebhookEvent[] {
  switch (event.type) {
    case "ticket.saved": {
      const t = event.ticket;
      const name: WebhookEventName =
        t.status === "closed" && event.previous?.status !== "closed" && event.previous
          ? "ticket.closed"
          : t.createdAt === t.updatedAt
            ? "ticket.created"
            : t.status === "closed" && !event.previous
              ? "ticket.closed"
              : "ticket.updated";
      return [{ event: name, entity: `ticket:${t.id}`, data: t }];
    }
    case "message.saved":
      return [
        {
          event: event.action === "create" ? "message.created" : "message.updated",
          entity: `ticket:${event.ticket.id}`,
          data: { message: event.message, ticket: event.ticket, contact: event.contact },
        },
      ];
    case "contact.saved":
      return [
        {
          event: event.action === "create" ? "contact.created" : "contact.updated",
          entity: `contact:${event.contact.id}`,
          data: event.contact,
        },
      ];
    case "whatsapp.session": {
      const { qrcode: _qr, ...session } = event.session;
      return [{ event: "connection.status", entity: `connection:${session.id}`, data: session }];
    }
    // Created, started, paused or resumed, finished, cancelled, or edited: the campaign as it is now.
    case "campaign.changed": {
      const { payload } = event;
      if (payload.action !== "create" && payload.action !== "update") return [];
      return [{ event: "campaign.status", entity: `campaign:${payload.record.id}`, data: payload.record }];
    }
    // A payment settled an invoice: the invoice, paid, and the company's new due date.
    case "payment.confirmed": {
      const { invoice, company } = event.payload;
      return [{ event: "invoice.paid", entity: `invoice:${invoice.id}`, data: { invoice, company } }];
    }
    case "webhook.event":
      return [
        { event: event.event, entity: event.entity, data: event.data, subscriptionId: event.subscriptionId },
      ];
    default:
      return [];
  }
}

/** Subscriptions per company, read again after `ttlMs` or when this instance changes them. */
export class SubscriptionCache {
  private readonly byCompany = new Map<number, { at: number; subs: { id: number; events: string[] }[] }>();
  constructor(private readonly ttlMs = 5_000) {}

  async of(db: Executor, companyId: number) {
    const hit = this.byCompany.get(companyId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.subs;
    const subs = await q.activeSubscriptions(db, companyId);
    this.byCompany.set(companyId, { at: Date.now(), subs });
    if (this.byCompany.size > 10_000) this.byCompany.delete(this.byCompany.keys().next().value!);
    return subs;
  }

  forget(companyId: number) {
    this.byCompany.delete(companyId);
  }
}

/**
 * Whether a plain inbound batch of the company (events/bus.ts, QuietOnInbound) calls for no delivery:
 * its message.created and ticket.updated events are the only ones it raises, so it does unless one of
 * the company's subscriptions asked for them (a per-message webhook).
 */
export function webhooksQuietOnInbound(cache: SubscriptionCache) {
  return async (db: Executor, companyId: number) =>
    !(await cache.of(db, companyId)).some(
      (s) => s.events.includes("message.created") || s.events.includes("ticket.updated"),
    );
}

/**
 * The follower that turns committed-with-their-cause events into deliveries: a row and a durable
 * job per subscription that asked for the event, in the transaction that raised it. One entity's
 * deliveries to one subscription run in order (the job's orderKey).
 */
export function webhookFollower(cache: SubscriptionCache, poke: () => void): Follower {
  return async (tx, events) => {
    const rows: Parameters<typeof q.insertDeliveries>[1] = [];
    const entities: string[] = [];
    for (const domainEvent of events) {
      const mapped = webhookEventsOf(domainEvent);
      if (mapped.length === 0) continue;
      const subs = await cache.of(tx, domainEvent.companyId);
      if (subs.length === 0 && !mapped.some((m) => m.subscriptionId)) continue;
      for (const m of mapped) {
        const targets = m.subscriptionId
          ? [{ id: m.subscriptionId }]
          : subs.filter((s) => s.events.includes(m.event));
        for (const sub of targets) {
          rows.push({
            companyId: domainEvent.companyId,
            subscriptionId: sub.id,
            event: m.event,
            data: m.data ?? null,
          });
          entities.push(m.entity);
        }
      }
    }
    if (rows.length === 0) return;
    const inserted = await q.insertDeliveries(tx, rows);
    await enqueueJobs(
      tx,
      inserted.map((d, i) => ({
        type: WEBHOOK_DELIVERY_JOB,
        companyId: rows[i]!.companyId,
        payload: { deliveryRowId: d.id },
        orderKey: `webhook:${d.subscriptionId}:${entities[i]}`,
        maxAttempts: 17,
      })),
    );
    return poke;
  };
}
