import { and, desc, eq } from "drizzle-orm";
import type { TicketNoteDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { ticketNotes, users } from "../../db/schema/index.js";
import { type TicketNoteRow, presentTicketNote } from "./present.js";

/** Every helper takes the caller's companyId first: a note of another company is simply not found. */

export async function findNoteRow(
  db: Executor,
  companyId: number,
  id: number,
): Promise<TicketNoteRow | null> {
  const [row] = await db
    .select()
    .from(ticketNotes)
    .where(and(eq(ticketNotes.companyId, companyId), eq(ticketNotes.id, id)));
  return row ?? null;
}

export async function findNote(db: Executor, companyId: number, id: number): Promise<TicketNoteDTO | null> {
  const [row] = await db
    .select({ note: ticketNotes, userName: users.name })
    .from(ticketNotes)
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(and(eq(ticketNotes.companyId, companyId), eq(ticketNotes.id, id)));
  return row ? presentTicketNote(row.note, row.userName) : null;
}

/** A ticket's notes, newest first, with their authors' names. */
export async function notesOfTicket(
  db: Executor,
  companyId: number,
  ticketId: number,
): Promise<TicketNoteDTO[]> {
  const rows = await db
    .select({ note: ticketNotes, userName: users.name })
    .from(ticketNotes)
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(and(eq(ticketNotes.companyId, companyId), eq(ticketNotes.ticketId, ticketId)))
    .orderBy(desc(ticketNotes.createdAt), desc(ticketNotes.id));
  return rows.map((r) => presentTicketNote(r.note, r.userName));
}

export async function insertNote(
  tx: Executor,
  companyId: number,
  values: Omit<typeof ticketNotes.$inferInsert, "companyId">,
): Promise<number> {
  const [row] = await tx
    .insert(ticketNotes)
    .values({ ...values, companyId })
    .returning({ id: ticketNotes.id });
  return row!.id;
}

/** Whether a note was deleted. */
export async function deleteNote(tx: Executor, companyId: number, id: number): Promise<boolean> {
  const gone = await tx
    .delete(ticketNotes)
    .where(and(eq(ticketNotes.companyId, companyId), eq(ticketNotes.id, id)))
    .returning({ id: ticketNotes.id });
  return gone.length > 0;
}
