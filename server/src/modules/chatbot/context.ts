import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { DEFAULT_COMPANY_SETTINGS, DEFAULT_TIMEZONE } from "@atende/contracts";
import type { Executor, Tx } from "../../db/client.js";
import {
  queueOptions,
  queues,
  settings,
  ticketBotStates,
  tickets,
  whatsappQueues,
  whatsapps,
} from "../../db/schema/index.js";
import type { Raise } from "../../events/bus.js";
import { queueOutbound } from "../messages/outbound.js";
import { loadTicket } from "../tickets/present.js";
import { track } from "./tracking.js";

export type TicketRow = typeof tickets.$inferSelect;
export type ConnectionRow = typeof whatsapps.$inferSelect;
export type QueueRow = typeof queues.$inferSelect;
export type OptionRow = typeof queueOptions.$inferSelect;
export type BotState = typeof ticketBotStates.$inferSelect;

/** The company's settings with the spec's defaults for the keys never saved. */
export async function settingsOf(db: Executor, companyId: number): Promise<Record<string, string>> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, companyId));
  const out: Record<string, string> = { ...DEFAULT_COMPANY_SETTINGS };
  for (const r of rows) out[r.key] = r.value;
  if (!out.timezone) out.timezone = DEFAULT_TIMEZONE;
  return out;
}

export const enabled = (s: Record<string, string>, key: string) => s[key] === "enabled";

export async function connectionOf(db: Executor, companyId: number, whatsappId: number | null) {
  if (whatsappId === null) return null;
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)));
  return row ?? null;
}

/** The connection's queues in menu order (orderQueue, then the unnumbered ones by id). */
export async function connectionQueues(db: Executor, companyId: number, whatsappId: number) {
  return db
    .select({ queue: queues })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(and(eq(whatsappQueues.companyId, companyId), eq(whatsappQueues.whatsappId, whatsappId)))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.id))
    .then((rows) => rows.map((r) => r.queue));
}

export async function optionsUnder(db: Executor, queueId: number, parentId: number | null) {
  return db
    .select()
    .from(queueOptions)
    .where(
      and(
        eq(queueOptions.queueId, queueId),
        parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
      ),
    )
    .orderBy(asc(queueOptions.option), asc(queueOptions.id));
}

export async function botStateOf(db: Executor, ticketId: number): Promise<BotState | null> {
  const [row] = await db.select().from(ticketBotStates).where(eq(ticketBotStates.ticketId, ticketId));
  return row ?? null;
}

export async function saveBotState(
  tx: Executor,
  ticket: { id: number; companyId: number },
  patch: Partial<Omit<BotState, "ticketId" | "companyId">>,
  at: Date,
) {
  await tx
    .insert(ticketBotStates)
    .values({ ticketId: ticket.id, companyId: ticket.companyId, ...patch, updatedAt: at })
    .onConflictDoUpdate({ target: ticketBotStates.ticketId, set: { ...patch, updatedAt: at } });
}

const MIME_BY_EXT: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  mp4: "video/mp4",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  pdf: "application/pdf",
};

export function mediaOf(row: { mediaPath: string | null; mediaName: string | null }) {
  if (!row.mediaPath) return null;
  const name = row.mediaName || row.mediaPath.split("/").pop() || "file";
  const ext = name.split(".").pop()?.toLowerCase() ?? "";
  return { path: row.mediaPath, name, mimetype: MIME_BY_EXT[ext] ?? "application/octet-stream" };
}

/** A message from the bot (never an agent's reply). */
export function botSays(
  tx: Tx,
  raise: Raise,
  ticket: { id: number; companyId: number },
  body: string,
  media: ReturnType<typeof mediaOf> = null,
) {
  return queueOutbound(tx, raise, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    body,
    isBot: true,
    media,
  });
}

export const RATING_OPTIONS = "*[ 1 ]* - Insatisfeito\n*[ 2 ]* - Satisfeito\n*[ 3 ]* - Muito satisfeito";
export const ratingQuestion = (connection: ConnectionRow) =>
  `${connection.ratingMessage}\n\n${RATING_OPTIONS}`;

export const transferNotice = (queueName: string) =>
  `*Mensagem automática*:\nVocê foi transferido para o departamento *${queueName}*\naguarde, já vamos te atender!`;

/** Closes the ticket in the caller's transaction: the timeline's finish, no rating awaited any more. */
export async function closeTicket(tx: Tx, raise: Raise, ticket: TicketRow, at: Date) {
  await tx.update(tickets).set({ status: "closed", updatedAt: at }).where(eq(tickets.id, ticket.id));
  await track(tx, ticket, { finishedAt: at }, at);
  await tx
    .update(ticketBotStates)
    .set({ ratingAsks: 0, updatedAt: at })
    .where(eq(ticketBotStates.ticketId, ticket.id));
  raise({
    type: "ticket.saved",
    companyId: ticket.companyId,
    ticket: (await loadTicket(tx, ticket.companyId, ticket.id))!,
    previous: { queueId: ticket.queueId, userId: ticket.userId },
  });
}
