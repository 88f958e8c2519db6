import type { TicketDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { tickets } from "../../db/schema/index.js";
import type { Raise } from "../../events/bus.js";
import { loadTicket, track, upsertLiveTicket } from "./queries.js";

type TicketRow = typeof tickets.$inferSelect;

/** How a ticket is opened when the contact has no live one on the connection. */
export interface TicketOpening {
  /** The agent it is opened for (status "open"), or null. */
  userId: number | null;
  queueId: number | null;
  /** "open": an agent's, accepted at once; "pending": waiting in the queue to be accepted. */
  status: "open" | "pending";
}

/**
 * The one place a live ticket is found or opened for a contact on a connection (the inbound
 * writer's batch statement keeps the same rule on the same unique index): the live ticket as it is,
 * or a new one opened with `opening`, its tracking started (queued, accepted) and announced
 * (`ticket.saved`, the ticket as `saved`). An agent starting a ticket, the public API, a schedule
 * and a forwarded message all come here. Answers null for a contact that is not the company's.
 */
export async function openOrFindLiveTicket(
  tx: Executor,
  raise: Raise,
  companyId: number,
  key: { contactId: number; whatsappId: number },
  opening: TicketOpening,
  at: Date,
): Promise<{ ticket: TicketRow; opened: boolean; saved: TicketDTO | null } | null> {
  const found = await upsertLiveTicket(tx, companyId, key, opening, at);
  if (!found) return null;
  if (!found.opened) return { ...found, saved: null };
  await track(
    tx,
    found.ticket,
    {
      ...(opening.queueId !== null ? { queuedAt: at } : {}),
      ...(opening.status === "open" ? { acceptedAt: at } : {}),
    },
    at,
  );
  const saved = (await loadTicket(tx, companyId, found.ticket.id))!;
  raise({ type: "ticket.saved", companyId, ticket: saved });
  return { ...found, saved };
}
