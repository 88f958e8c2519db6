import { z } from "zod";
import { noNul } from "./validation.js";

/**
 * AI help for agents in the composer (issue 39, item 4): a suggested reply, a rephrasing of what the
 * agent typed, a summary of the conversation for a ticket note. Answered by the company's own AI
 * provider (its prompt's key and the configured model), never sent by themselves.
 */

/**
 * What goes into one request, at most: the ticket's last messages (each clipped), the agent's quick
 * messages (each clipped), the queue prompt's text, and the text to rephrase.
 */
export const ASSIST_LIMITS = {
  messages: 30,
  messageChars: 1000,
  quickMessages: 20,
  quickMessageChars: 300,
  promptChars: 4000,
  text: 4000,
  /** A summary fills a ticket note (TICKET_NOTE.max is 5000). */
  summaryChars: 5000,
} as const;

/** How a rephrase changes the agent's text. */
export const ASSIST_STYLES = ["friendlier", "shorter", "grammar"] as const;
export type AssistStyle = (typeof ASSIST_STYLES)[number];

/** POST /tickets/:ticketId/assist/rephrase */
export const assistRephraseSchema = z.object({
  text: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, { error: "validation.required", abort: true })
    .max(ASSIST_LIMITS.text, "validation.tooLong")
    .refine(noNul, "validation.invalid"),
  style: z.enum(ASSIST_STYLES, "validation.invalid"),
});
export type AssistRephraseInput = z.infer<typeof assistRephraseSchema>;

/** A suggestion, a rephrasing or a summary: text for the agent to edit; nothing was sent or saved. */
export const assistAnswerSchema = z.object({ text: z.string() }).meta({
  id: "AssistAnswer",
  description: "Text from the company's AI provider for the agent to edit; nothing was sent or saved",
});
export type AssistAnswerDTO = z.infer<typeof assistAnswerSchema>;

/** GET /assist: whether the composer offers AI help (the company has a prompt with a key). */
export const assistStatusSchema = z
  .object({ available: z.boolean() })
  .meta({ id: "AssistStatus", description: "Whether the company's AI provider can help its agents" });
export type AssistStatusDTO = z.infer<typeof assistStatusSchema>;
