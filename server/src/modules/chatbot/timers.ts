import { and, eq, sql } from "drizzle-orm";
import type { ConnectionCache } from "../../channels/connectionCache.js";
import { type Db, queryRows } from "../../db/client.js";
import { messages, queues, tickets } from "../../db/schema/index.js";
import { type EventBus, inTransaction } from "../../events/bus.js";
import { type JobHandler, enqueueJob } from "../../jobs/runner.js";
import { loadTicket } from "../tickets/present.js";
import { botSays, closeTicket, connectionOf, enabled, settingsOf, transferNotice } from "./context.js";
import { track } from "./tracking.js";

export const EXPIRE_TICKET_JOB = "ticket-expire";
export const AUTO_TRANSFER_JOB = "ticket-auto-transfer";

type TimerDeps = { db: Db; bus: EventBus; now: () => Date; poke: () => void };

/**
 * Arms the connection's timers for a ticket that changed: auto-close of an open ticket after
 * expiresTicket hours without messages, auto-transfer of a waiting one after timeToTransfer minutes.
 * One pending job per ticket and timer (dedupeKey); the job re-arms itself when activity moved it.
 */
export async function armTimers(
  deps: Pick<TimerDeps, "db" | "now"> & { connections: Pick<ConnectionCache, "get"> },
  t: {
    id: number;
    companyId: number;
    status: string;
    userId: number | null;
    queueId: number | null;
    whatsappId: number | null;
  },
): Promise<boolean> {
  if (t.status === "closed" || t.whatsappId === null) return false;
  // Read on every ticket.saved (each customer message): the cached row.
  const connection = await deps.connections.get(t.companyId, t.whatsappId);
  if (!connection) return false;
  const at = deps.now().getTime();
  let armed = false;
  if (t.status === "open" && connection.expiresTicket > 0) {
    armed =
      (await enqueueJob(deps.db, {
        type: EXPIRE_TICKET_JOB,
        companyId: t.companyId,
        payload: { ticketId: t.id },
        runAt: new Date(at + connection.expiresTicket * 3600_000),
        dedupeKey: `expire:${t.id}`,
      })) !== null || armed;
  }
  if (
    t.status === "pending" &&
    t.userId === null &&
    connection.timeToTransfer > 0 &&
    connection.transferQueueId !== null &&
    t.queueId !== connection.transferQueueId
  ) {
    armed =
      (await enqueueJob(deps.db, {
        type: AUTO_TRANSFER_JOB,
        companyId: t.companyId,
        payload: { ticketId: t.id, fromQueueId: t.queueId },
        runAt: new Date(at + connection.timeToTransfer * 60_000),
        dedupeKey: `transfer:${t.id}`,
      })) !== null || armed;
  }
  return armed;
}

/**
 * Arms the timers of tickets that have none (they existed before the timers did, or were written
 * without a ticket.saved): at startup, idempotently. Each timer counts from the ticket's last
 * change; the jobs' unique dedupeKey (`expire:<id>`, `transfer:<id>`) keeps one per ticket however
 * many instances start at once. Answers how many it armed.
 */
export async function armMissingTimers(db: Db): Promise<number> {
  const expiring = await queryRows<{ id: number }>(
    db,
    sql`insert into jobs (type, company_id, payload, run_at, dedupe_key)
        select ${EXPIRE_TICKET_JOB}, t.company_id, jsonb_build_object('ticketId', t.id),
               t.updated_at + make_interval(hours => w.expires_ticket), 'expire:' || t.id
        from tickets t
        join whatsapps w on w.id = t.whatsapp_id and w.company_id = t.company_id
        where t.status = 'open' and w.expires_ticket > 0
          and not exists (select 1 from jobs j where j.dedupe_key = 'expire:' || t.id
                            and j.status in ('pending', 'running'))
        on conflict do nothing
        returning id`,
  );
  const transferring = await queryRows<{ id: number }>(
    db,
    sql`insert into jobs (type, company_id, payload, run_at, dedupe_key)
        select ${AUTO_TRANSFER_JOB}, t.company_id,
               jsonb_build_object('ticketId', t.id, 'fromQueueId', t.queue_id),
               t.updated_at + make_interval(mins => w.time_to_transfer), 'transfer:' || t.id
        from tickets t
        join whatsapps w on w.id = t.whatsapp_id and w.company_id = t.company_id
        join queues q on q.id = w.transfer_queue_id and q.company_id = t.company_id
        where t.status = 'pending' and t.user_id is null and w.time_to_transfer > 0
          and t.queue_id is distinct from w.transfer_queue_id
          and not exists (select 1 from jobs j where j.dedupe_key = 'transfer:' || t.id
                            and j.status in ('pending', 'running'))
        on conflict do nothing
        returning id`,
  );
  return expiring.length + transferring.length;
}

/** Closes an open ticket whose last message is older than the connection's expiresTicket. */
export function expireTicketJob(deps: TimerDeps): JobHandler<typeof EXPIRE_TICKET_JOB> {
  const { db, bus, now } = deps;
  return {
    async run(job) {
      const { ticketId } = job.payload;
      const [ticket] = await db.select().from(tickets).where(eq(tickets.id, ticketId));
      if (!ticket || ticket.status !== "open") return;
      const connection = await connectionOf(db, ticket.companyId, ticket.whatsappId);
      if (!connection || connection.expiresTicket <= 0) return;
      const [last] = await db
        .select({ at: sql<string | null>`max(${messages.createdAt})` })
        .from(messages)
        .where(eq(messages.ticketId, ticket.id));
      const lastAt = Math.max(last?.at ? new Date(last.at).getTime() : 0, ticket.updatedAt.getTime());
      const due = lastAt + connection.expiresTicket * 3600_000;
      const at = now();
      if (at.getTime() < due) {
        // Activity since it was armed: wait for the rest of the period (this job is running, so the key is free).
        await enqueueJob(db, {
          type: EXPIRE_TICKET_JOB,
          companyId: ticket.companyId,
          payload: { ticketId },
          runAt: new Date(due),
          dedupeKey: `expire:${ticketId}`,
        });
        return;
      }
      await inTransaction(db, bus, async (tx, raise) => {
        const [t] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for("update");
        if (!t || t.status !== "open") return;
        if (connection.expiresInactiveMessage.trim() && !t.isGroup)
          await botSays(tx, raise, t, connection.expiresInactiveMessage);
        await closeTicket(tx, raise, t, at);
      });
      deps.poke();
    },
  };
}

/** Moves a ticket still waiting (no agent) to the connection's transferQueueId. */
export function autoTransferJob(deps: TimerDeps): JobHandler<typeof AUTO_TRANSFER_JOB> {
  const { db, bus, now } = deps;
  return {
    async run(job) {
      const { ticketId } = job.payload;
      const [ticket] = await db.select().from(tickets).where(eq(tickets.id, ticketId));
      if (!ticket || ticket.status !== "pending" || ticket.userId !== null) return;
      const connection = await connectionOf(db, ticket.companyId, ticket.whatsappId);
      const target = connection?.transferQueueId ?? null;
      if (!connection || target === null || ticket.queueId === target) return;
      const [queue] = await db
        .select()
        .from(queues)
        .where(and(eq(queues.companyId, ticket.companyId), eq(queues.id, target)));
      if (!queue) return;
      const settings = await settingsOf(db, ticket.companyId);
      const at = now();
      await inTransaction(db, bus, async (tx, raise) => {
        const [t] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for("update");
        if (!t || t.status !== "pending" || t.userId !== null || t.queueId === target) return;
        await tx.update(tickets).set({ queueId: target, updatedAt: at }).where(eq(tickets.id, t.id));
        await track(tx, { ...t, queueId: target }, { queueId: target, queuedAt: at }, at);
        if (enabled(settings, "sendMsgTransfTicket") && !t.isGroup)
          await botSays(tx, raise, t, transferNotice(queue.name));
        raise({
          type: "ticket.saved",
          companyId: t.companyId,
          ticket: (await loadTicket(tx, t.companyId, t.id))!,
          previous: { queueId: t.queueId, userId: t.userId },
        });
      });
      deps.poke();
    },
  };
}
