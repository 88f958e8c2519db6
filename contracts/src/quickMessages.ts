import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { LIMITS } from "./constants.js";
import { noNul } from "./validation.js";
import { type Actor, can } from "./permissions.js";

/** A quick message as every answer and the `company-{id}-quickmessage` event carry it. */
export const quickMessageSchema = z
  .object({
    id: rowId,
    shortcode: z.string(),
    message: z.string(),
    /** The attachment's stored path and its original file name, or null. */
    mediaPath: z.string().nullable(),
    mediaName: z.string().nullable(),
    /** Where the web app fetches the attachment (authenticated), or null. */
    mediaUrl: z.string().nullable(),
    /** Global (geral): offered to everyone in the company, not only its author. */
    geral: z.boolean(),
    companyId: rowId,
    userId: rowId.nullable(),
    user: z.object({ id: rowId, name: z.string() }).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "QuickMessage", description: "A quick message: a shortcode the chat's '/' list expands" });
export type QuickMessageDTO = z.infer<typeof quickMessageSchema>;

/** GET /quick-messages: the page's infinite list, as clients of this API family read it. */
export const quickMessagesPageSchema = pageOf("records", quickMessageSchema).meta({
  id: "QuickMessagesPage",
  description: "A page of the quick messages the caller sees",
});
export type QuickMessagesPage = z.infer<typeof quickMessagesPageSchema>;

export const QUICK_MESSAGE = { shortcodeMax: 100, messageMax: 10_000 } as const;

/** Shortcode: required ('Obrigatório', back-office section 5); a leading '/' is the chat's trigger, not part of it. */
export const quickMessageShortcodeField = z
  .string({ error: "validation.obrigatorio" })
  .trim()
  .transform((v) => v.replace(/^\/+/, "").trim())
  .pipe(
    z
      .string()
      .min(1, { error: "validation.obrigatorio", abort: true })
      .max(QUICK_MESSAGE.shortcodeMax, "validation.tooLong")
      .refine(noNul, "validation.invalid"),
  );

export const quickMessageTextField = z
  .string("validation.invalid")
  .max(QUICK_MESSAGE.messageMax, "validation.tooLong")
  .refine(noNul, "validation.invalid");

/** The global flag arrives as a boolean, or as "true"/"false" (multipart-minded clients). */
const geralField = z
  .union([z.boolean(), z.enum(["true", "false"])], "validation.invalid")
  .transform((v) => v === true || v === "true");

export const quickMessageCreateSchema = z.object({
  shortcode: quickMessageShortcodeField,
  message: quickMessageTextField.optional().default(""),
  geral: geralField.optional().default(false),
});
export type QuickMessageCreateInput = z.infer<typeof quickMessageCreateSchema>;

export const quickMessageUpdateSchema = z.object({
  shortcode: quickMessageShortcodeField.optional(),
  message: quickMessageTextField.optional(),
  geral: geralField.optional(),
});
export type QuickMessageUpdateInput = z.infer<typeof quickMessageUpdateSchema>;

/** The '/' list of the chat input: shown when the text starts with '/' and has more than 1 character. */
export function quickMessageSearchOf(inputText: string): string | null {
  if (!inputText.startsWith("/") || inputText.length <= 1) return null;
  return inputText.slice(1).toLowerCase();
}

/** The chat list's preview of a message: cut at 35 characters. */
export function quickMessagePreview(message: string): string {
  const max = LIMITS.quickMessagePreviewChars;
  return message.length > max ? `${message.slice(0, max)}...` : message;
}

/** Admin and supervisor edit or delete any quick message; a user only their own non-global ones. */
export function mayEditQuickMessage(
  actor: Actor,
  actorId: number,
  quickMessage: { userId: number | null; geral: boolean },
): boolean {
  if (can(actor, "quick-messages:editAny")) return true;
  return !quickMessage.geral && quickMessage.userId === actorId;
}
