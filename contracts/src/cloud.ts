import { z } from "zod";
import { rowId, timestamp } from "./answers.js";

/**
 * The WhatsApp Cloud API's 24-hour customer-service window and its message templates: outside the
 * window (24 h after the customer's last message) only an approved template may be sent.
 */

export const CLOUD_WINDOW_HOURS = 24;

/** GET /tickets/{ticketId}/window: whether a free-form message may go now. */
export const conversationWindowSchema = z
  .object({
    /** Only Cloud API connections have a window; other providers answer open, with no end. */
    applies: z.boolean(),
    /** The ticket's connection (whose templates may be sent). */
    whatsappId: rowId.nullable(),
    open: z.boolean(),
    /** When the customer last wrote, null when never. */
    lastInboundAt: timestamp.nullable(),
    /** When the window closes (or closed), null when the customer never wrote. */
    endsAt: timestamp.nullable(),
  })
  .meta({
    id: "ConversationWindow",
    description:
      "Whether a free-form message may go to the ticket's customer now (the Cloud API's 24-hour window)",
  });
export type ConversationWindowDTO = z.infer<typeof conversationWindowSchema>;

/** One approved template as the composer offers it: its texts and how many variables each part has. */
export const cloudTemplateSchema = z
  .object({
    name: z.string(),
    language: z.string(),
    category: z.string(),
    /** The header's text (when it is text), with {{1}} where a value goes. */
    header: z.string().nullable(),
    body: z.string(),
    footer: z.string().nullable(),
    /** How many values the header and the body take ({{1}}…{{n}}). */
    headerVariables: z.number().int().nonnegative(),
    bodyVariables: z.number().int().nonnegative(),
  })
  .meta({
    id: "CloudTemplate",
    description: "An approved Cloud API message template as the composer offers it",
  });
export type CloudTemplateDTO = z.infer<typeof cloudTemplateSchema>;

const value = z.string().trim().min(1, "validation.required").max(1024, "validation.tooLong");

/** POST /messages/{ticketId}/template */
export const templateSendSchema = z.object({
  name: z.string().trim().min(1, "validation.required").max(512),
  language: z.string().trim().min(2, "validation.required").max(15),
  header: z.array(value).max(1).optional().default([]),
  body: z.array(value).max(100).optional().default([]),
});
export type TemplateSendInput = z.infer<typeof templateSendSchema>;

/** How many distinct {{n}} variables a template text has (Meta numbers them 1…n). */
export function templateVariableCount(text: string | null | undefined): number {
  const numbers = new Set([...(text ?? "").matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1])));
  return numbers.size;
}

/** A template text with its variables filled, as the customer will read it. */
export function fillTemplate(text: string, values: readonly string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => values[Number(n) - 1] ?? whole);
}
