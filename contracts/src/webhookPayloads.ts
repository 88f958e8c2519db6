import { z } from "zod";
import { rowId } from "./answers.js";
import { invoiceSchema } from "./billing.js";
import { campaignSchema } from "./campaigns.js";
import { contactSchema } from "./contacts.js";
import { messageSchema } from "./messages.js";
import { ticketSchema } from "./tickets.js";
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, type WebhookEventName, webhookBodyOf } from "./webhooks.js";
import { whatsappSessionSchema } from "./whatsapps.js";

/** A message event's data: the message, its ticket and its contact, as the API presents them. */
const messageEventSchema = z
  .object({ message: messageSchema, ticket: ticketSchema, contact: contactSchema })
  .meta({ id: "MessageEvent", description: "A message with its ticket and contact" });

/** invoice.paid's data: the invoice, paid, and the company with its new due date. */
const invoicePaidSchema = z
  .object({
    invoice: invoiceSchema,
    company: z.object({
      id: rowId,
      name: z.string(),
      /** The next due date (YYYY-MM-DD), moved by the payment. */
      dueDate: z.iso.date().nullable(),
      recurrence: z.string(),
      status: z.boolean(),
    }),
  })
  .meta({
    id: "InvoicePaidEvent",
    description: "An invoice a payment settled, and its company's new due date",
  });

/**
 * What each event's `data` is, and when it is sent: the API document's `webhooks` section is made
 * of this, and the webhook tests check every delivery against it.
 */
export const WEBHOOK_PAYLOADS = {
  "ticket.created": {
    data: ticketSchema,
    when: "A ticket was opened (a customer wrote, or an agent started one).",
  },
  "ticket.updated": {
    data: ticketSchema,
    when: "A ticket changed: accepted, returned to the queue, transferred, tagged, reopened, a new last message.",
  },
  "ticket.closed": { data: ticketSchema, when: "A ticket was resolved." },
  "message.created": {
    data: messageEventSchema,
    when: "A message was received or sent in a ticket (by the customer, an agent, a bot or a campaign).",
  },
  "message.updated": {
    data: messageEventSchema,
    when: "A message changed: its delivery ticks, an edit, a deletion, a reaction, its media downloaded.",
  },
  "contact.created": {
    data: contactSchema,
    when: "A contact was added (a new customer wrote, or one was created).",
  },
  "contact.updated": { data: contactSchema, when: "A contact changed: its name, picture, fields or tags." },
  "connection.status": {
    data: whatsappSessionSchema.omit({ qrcode: true }),
    when: "A connection's session changed status (connected, waiting for its QR code, disconnected...).",
  },
  "campaign.status": {
    data: campaignSchema,
    when: "A campaign was made or changed: started, paused or resumed, finished, cancelled, edited.",
  },
  "invoice.paid": { data: invoicePaidSchema, when: "A payment settled one of the company's invoices." },
  [WEBHOOK_TEST_EVENT]: {
    data: z.object({ message: z.string(), webhookId: rowId, url: z.string() }),
    when: 'Sent by "send test event" to that subscription alone, whatever events it chose.',
  },
} as const satisfies Record<WebhookEventName | typeof WEBHOOK_TEST_EVENT, { data: z.ZodType; when: string }>;

/** The body of one event's deliveries. */
export function webhookPayloadSchema(event: WebhookEventName | typeof WEBHOOK_TEST_EVENT) {
  return webhookBodyOf(event, WEBHOOK_PAYLOADS[event].data);
}

/** Every event a delivery may carry, in the document's order. */
export const WEBHOOK_DELIVERY_EVENTS = [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT] as const;
