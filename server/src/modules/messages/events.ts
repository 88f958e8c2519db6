import type { Executor } from "../../db/client.js";
import type { Raise } from "../../events/bus.js";
import { presentContact } from "../contacts/present.js";
import { contactOf, loadMessage } from "./queries.js";
import { loadTicket } from "../tickets/queries.js";

/** Emits the message and its ticket as they are now (after a send, an ack, a failure). */
export async function raiseMessageSaved(
  tx: Executor,
  raise: Raise,
  companyId: number,
  messageId: number,
  action: "create" | "update",
) {
  const message = await loadMessage(tx, companyId, messageId);
  if (!message) return;
  const ticket = (await loadTicket(tx, companyId, message.ticketId))!;
  const contact = await contactOf(tx, companyId, ticket.contactId);
  raise({ type: "message.saved", companyId, action, message, ticket, contact: presentContact(contact!) });
}
