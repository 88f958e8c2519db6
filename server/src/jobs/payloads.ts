import { z } from "zod";

/**
 * Every kind of durable job and what its payload holds: the one map `enqueueJob` and
 * `JobRunner.register` are typed from. Payloads are stored as JSON in the jobs table, so a row
 * written by an older version (or by hand) is read through its schema before a handler sees it:
 * a malformed one fails for good instead of running on `NaN`.
 */

/** An id as stored: a number (older rows may hold its digits as a string, which Number() accepted). */
const id = z.coerce.number().int().positive();

const channelAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("markRead"), wids: z.array(z.string()) }),
  z.object({ action: z.literal("react"), messageId: id, emoji: z.string() }),
  z.object({ action: z.literal("edit"), messageId: id, body: z.string() }),
  z.object({ action: z.literal("delete"), messageId: id }),
  z.object({ action: z.literal("typing") }),
  z.object({ action: z.literal("watchPresence") }),
]);

export const jobPayloadSchemas = {
  /** An agent's (or the bot's) queued message handed to the connection (messages/outbound.ts). */
  "send-message": z.object({ messageId: id }),
  /** A read receipt, reaction, edit or delete on WhatsApp (messages/actions.ts). */
  "channel-action": z.object({ ticketId: id }).and(channelAction),
  /** The bot's turn on one customer message (bots/menu/bot.ts). */
  "chatbot-step": z.object({ ticketId: id, messageId: id }),
  /** Auto-close of an open ticket without messages (bots/menu/timers.ts). */
  "ticket-expire": z.object({ ticketId: id }),
  /** Auto-transfer of a waiting ticket (bots/menu/timers.ts); `fromQueueId` is kept for the log. */
  "ticket-auto-transfer": z.object({ ticketId: id, fromQueueId: id.nullable().optional() }),
  /** A declined call (inbound/calls.ts). */
  "call-reject": z.object({ ticketId: id, messageId: id }),
  /** A schedule sent at its time (schedules/sending.ts). */
  "send-schedule": z.object({ scheduleId: id }),
  /** A handed-over schedule settled from its message (schedules/sending.ts). */
  "settle-schedule": z.object({ scheduleId: id, messageId: id }),
  /** A scheduled campaign started at its time: its recipients' rows made (campaigns/sender.ts). */
  "campaign-start": z.object({ campaignId: id }),
  /** The next recipient of a running campaign (campaigns/sender.ts); `run` stops an older run's chain. */
  "campaign-step": z.object({
    campaignId: id,
    run: z.number().int().nonnegative(),
    /** Messages this chain handed over so far (the greater interval counts them). */
    sent: z.number().int().nonnegative().optional().default(0),
  }),
  /** The campaign message of a recipient who answered the confirmation request (campaigns/answers.ts). */
  "campaign-confirm": z.object({ shippingId: id }),
  /** An inbound message's file, downloaded after the message is stored (modules/inbound/mediaJob.ts). */
  "inbound-media": z.object({
    messageId: id,
    whatsappId: id,
    ref: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    size: z.number().int().nonnegative().optional(),
  }),
  /** A confirmation request's deadline: unanswered by then, the recipient is unconfirmed (campaigns/answers.ts). */
  "campaign-confirm-timeout": z.object({ shippingId: id }),
  /** One Cloud API webhook delivery, stored as received (modules/inbound/cloudWebhook.ts). */
  "cloud-webhook": z.object({ whatsappId: z.number().int().positive(), body: z.unknown() }),
  /**
   * A password-reset or invitation mail (passwordReset/codeMail.ts): the code is made when it is
   * sent, never stored here. A reset names the e-mail asked for (maybe no account's); an invitation
   * its user, of the job's company.
   */
  "account-code-mail": z.discriminatedUnion("purpose", [
    z.object({ purpose: z.literal("reset"), email: z.string(), lang: z.enum(["pt", "en", "es"]) }),
    z.object({ purpose: z.literal("invite"), userId: id, lang: z.enum(["pt", "en", "es"]) }),
  ]),
  /** A spreadsheet read into a contact list, batch by batch, resumable (contactLists/jobs.ts). */
  "contact-list-import": z.object({ importId: id }),
  /** A contact list's unchecked numbers asked on WhatsApp through a connection (contactLists/jobs.ts). */
  "contact-list-check": z.object({ companyId: id, contactListId: id, whatsappId: id }),
  /** Billing's periodic work (billing/jobs.ts): invoices opened before due dates; charges reconciled. */
  "billing-invoices": z.object({}),
  "billing-reconcile": z.object({}),
  /** A connection needs a person (a token Meta refused, an account disabled): its admins are mailed (whatsapps/alerts.ts). */
  "connection-alert-mail": z.object({ whatsappId: id, reason: z.string(), detail: z.string().optional() }),
  /** One outbound webhook delivery, by its row (webhooks/delivery.ts); retried with the same deliveryId. */
  "webhook-delivery": z.object({ deliveryRowId: id }),
  /** A service-level target's due time (serviceLevels/jobs.ts): still unmet then, its breach is marked and told once. */
  "sla-breach": z.object({
    ticketId: id,
    target: z.enum(["firstResponse", "resolution"]),
    dueAt: z.string(),
  }),
} satisfies JobSchemas;

/** A map of job type → payload schema (the app's, or a test's own). */
export type JobSchemas = Record<string, z.ZodType<Record<string, unknown>>>;

/** Job type → payload type. */
export type PayloadsOf<S extends JobSchemas> = { [T in keyof S & string]: z.output<S[T]> };
export type JobPayloads = PayloadsOf<typeof jobPayloadSchemas>;
export type JobType = keyof JobPayloads;
