import { z } from "zod";

/**
 * The WhatsApp Cloud API's 24-hour customer-service window and its message templates: outside the
 * window (24 h after the customer's last message) only an approved template may be sent.
 */

export const CLOUD_WINDOW_HOURS = 24;

/** GET /tickets/{ticketId}/window: whether a free-form message may go now. */
export interface ConversationWindowDTO {
  /** Only Cloud API connections have a window; other providers answer open, with no end. */
  applies: boolean;
  /** The ticket's connection (whose templates may be sent). */
  whatsappId: number | null;
  open: boolean;
  /** When the customer last wrote (ISO), null when never. */
  lastInboundAt: string | null;
  /** When the window closes (or closed) (ISO), null when the customer never wrote. */
  endsAt: string | null;
}

/** One approved template as the composer offers it: its texts and how many variables each part has. */
export interface CloudTemplateDTO {
  name: string;
  language: string;
  category: string;
  /** The header's text (when it is text), with {{1}} where a value goes. */
  header: string | null;
  body: string;
  footer: string | null;
  /** How many values the header and the body take ({{1}}…{{n}}). */
  headerVariables: number;
  bodyVariables: number;
}

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
