import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { ticketTracking } from "../../db/schema/index.js";

export interface TrackingPatch {
  queueId?: number | null;
  userId?: number | null;
  whatsappId?: number | null;
  queuedAt?: Date;
  acceptedAt?: Date;
  finishedAt?: Date | null;
  ratingAt?: Date;
  ratedAt?: Date;
  rating?: number;
}

/**
 * Records a step of the ticket's timeline in the caller's transaction: creates the ticket's row on
 * its first step; a field given here replaces the stored one (queuedAt and acceptedAt keep the first).
 */
export async function track(
  tx: Executor,
  ticket: {
    id: number;
    companyId: number;
    whatsappId: number | null;
    queueId: number | null;
    userId: number | null;
  },
  patch: TrackingPatch,
  at: Date,
): Promise<void> {
  const values = {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    whatsappId: patch.whatsappId !== undefined ? patch.whatsappId : ticket.whatsappId,
    queueId: patch.queueId !== undefined ? patch.queueId : ticket.queueId,
    userId: patch.userId !== undefined ? patch.userId : ticket.userId,
    queuedAt: patch.queuedAt ?? null,
    acceptedAt: patch.acceptedAt ?? null,
    finishedAt: patch.finishedAt ?? null,
    ratingAt: patch.ratingAt ?? null,
    ratedAt: patch.ratedAt ?? null,
    rating: patch.rating ?? null,
    createdAt: at,
    updatedAt: at,
  };
  // The ticket as it stands after the change: its connection, queue and agent.
  const set: Record<string, unknown> = {
    updatedAt: at,
    whatsappId: values.whatsappId,
    queueId: values.queueId,
    userId: values.userId,
  };
  if (patch.queuedAt) set.queuedAt = sql`coalesce(${ticketTracking.queuedAt}, excluded.queued_at)`;
  if (patch.acceptedAt) set.acceptedAt = sql`coalesce(${ticketTracking.acceptedAt}, excluded.accepted_at)`;
  if (patch.finishedAt !== undefined) set.finishedAt = patch.finishedAt;
  if (patch.ratingAt) set.ratingAt = patch.ratingAt;
  if (patch.ratedAt) set.ratedAt = patch.ratedAt;
  if (patch.rating !== undefined) set.rating = patch.rating;
  await tx.insert(ticketTracking).values(values).onConflictDoUpdate({ target: ticketTracking.ticketId, set });
}

/**
 * An agent's message was queued at `at` (the app clock): the first one is the first reply (the
 * bot's never count).
 */
export async function trackAgentReply(
  tx: Executor,
  ticket: {
    id: number;
    companyId: number;
    whatsappId: number | null;
    queueId: number | null;
    userId: number | null;
  },
  at: Date,
): Promise<void> {
  await tx
    .insert(ticketTracking)
    .values({
      companyId: ticket.companyId,
      ticketId: ticket.id,
      whatsappId: ticket.whatsappId,
      queueId: ticket.queueId,
      userId: ticket.userId,
      firstAgentReplyAt: at,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoUpdate({
      target: ticketTracking.ticketId,
      set: {
        firstAgentReplyAt: sql`coalesce(${ticketTracking.firstAgentReplyAt}, excluded.first_agent_reply_at)`,
        updatedAt: at,
      },
    });
}
