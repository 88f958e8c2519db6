import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { contacts } from "../../db/schema/index.js";
import type { Raise } from "../../events/bus.js";
import { presentContact } from "../contacts/present.js";
import { loadTicket } from "../tickets/queries.js";
import { loadMessage } from "./present.js";

/** Emits the message and its ticket as they are now (after a send, an ack, a failure). */
export async function raiseMessageSaved(
  tx: Tx,
  raise: Raise,
  companyId: number,
  messageId: number,
  action: "create" | "update",
) {
  const message = await loadMessage(tx, companyId, messageId);
  if (!message) return;
  const ticket = (await loadTicket(tx, companyId, message.ticketId))!;
  const [contact] = await tx.select().from(contacts).where(eq(contacts.id, ticket.contactId));
  raise({ type: "message.saved", companyId, action, message, ticket, contact: presentContact(contact!) });
}
