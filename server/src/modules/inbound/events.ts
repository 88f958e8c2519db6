import type { DomainEvent } from "../../events/bus.js";
import { presentContact } from "../contacts/present.js";
import { presentMessage } from "../messages/present.js";
import type { StoredConversation } from "./queries.js";

/** The events of a message stored on the hot path: its contact and ticket once a batch, then itself. */
export function conversationEvents(stored: StoredConversation): DomainEvent[] {
  const { companyId } = stored.contact;
  const events: DomainEvent[] = [];
  if (stored.changed && stored.firstOfContact)
    events.push({
      type: "contact.saved",
      companyId,
      action: stored.created ? "create" : "update",
      contact: presentContact(stored.contact),
    });
  // Every message of a batch carries its ticket as the batch left it; the ticket itself once.
  if (stored.firstOfTicket) events.push({ type: "ticket.saved", companyId, ticket: stored.ticket });
  events.push({
    type: "message.saved",
    companyId,
    action: "create",
    // A message just stored has no reactions yet: a reaction to an unknown message is dropped.
    message: presentMessage(stored.message, stored.quoted, []),
    ticket: stored.ticket,
    contact: presentContact(stored.contact),
    ...(stored.quiet ? { turnQueued: true } : {}),
  });
  return events;
}
