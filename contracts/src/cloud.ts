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

/** A template's header kinds: text, a media file sent with each message, or a location. */
export const TEMPLATE_HEADER_FORMATS = ["TEXT", "IMAGE", "VIDEO", "DOCUMENT", "LOCATION"] as const;
export type TemplateHeaderFormat = (typeof TEMPLATE_HEADER_FORMATS)[number];
/** The header kinds whose file goes with each send (by link or by an uploaded media id). */
export const TEMPLATE_MEDIA_HEADERS = ["IMAGE", "VIDEO", "DOCUMENT"] as const;

/** A template's button as the composer shows it; URL buttons with {{1}} in the address take a value. */
export const cloudTemplateButtonSchema = z.object({
  /** Its position among the template's buttons (Meta's `index`, from 0). */
  index: z.number().int().nonnegative(),
  /** Meta's type: URL, QUICK_REPLY, PHONE_NUMBER, COPY_CODE… */
  type: z.string(),
  text: z.string(),
  url: z.string().nullable(),
  /** How many values it takes: 1 for a URL ending in {{1}}, else 0 (a quick reply's payload is optional). */
  variables: z.number().int().nonnegative(),
});
export type CloudTemplateButtonDTO = z.infer<typeof cloudTemplateButtonSchema>;

/** One approved template as the composer offers it: its texts and the variables each part takes. */
export const cloudTemplateSchema = z
  .object({
    name: z.string(),
    language: z.string(),
    category: z.string(),
    /** How its variables are written: {{1}}, {{2}} (POSITIONAL) or {{first_name}} (NAMED). */
    parameterFormat: z.enum(["POSITIONAL", "NAMED"]),
    /** The header's kind, null without a header. */
    headerFormat: z.enum(TEMPLATE_HEADER_FORMATS).nullable(),
    /** The header's text (when it is text), with {{1}} where a value goes. */
    header: z.string().nullable(),
    body: z.string(),
    footer: z.string().nullable(),
    /** How many values the header and the body take. */
    headerVariables: z.number().int().nonnegative(),
    bodyVariables: z.number().int().nonnegative(),
    /** Their names, in the order the values go: "1", "2"… or a NAMED template's names. */
    headerParams: z.array(z.string()),
    bodyParams: z.array(z.string()),
    buttons: z.array(cloudTemplateButtonSchema),
  })
  .meta({
    id: "CloudTemplate",
    description: "An approved Cloud API message template as the composer offers it",
  });
export type CloudTemplateDTO = z.infer<typeof cloudTemplateSchema>;

const value = z.string().trim().min(1, "validation.required").max(1024, "validation.tooLong");

/** A media header's file: a public https link, or the id of media uploaded to the connection. */
export const templateHeaderMediaSchema = z
  .object({
    link: z
      .string()
      .trim()
      .max(2048, "validation.tooLong")
      .regex(/^https?:\/\/[^\s]+$/i, "validation.invalid")
      .optional(),
    id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,128}$/, "validation.invalid")
      .optional(),
    /** A document's file name as the customer sees it. */
    filename: z.string().trim().min(1).max(240, "validation.tooLong").optional(),
  })
  .refine((m) => Boolean(m.link) !== Boolean(m.id), { message: "validation.invalid", path: ["link"] });

/** A button's value: a URL button's {{1}}, or a quick reply's payload. */
export const templateButtonValueSchema = z.object({
  index: z.number().int().min(0).max(9),
  value,
});

/** POST /messages/{ticketId}/template (and a campaign's template). */
export const templateSendSchema = z.object({
  name: z.string().trim().min(1, "validation.required").max(512),
  language: z.string().trim().min(2, "validation.required").max(15),
  header: z.array(value).max(1).optional().default([]),
  /** The body's values in the order of the template's `bodyParams`. */
  body: z.array(value).max(100).optional().default([]),
  /** The file of an IMAGE, VIDEO or DOCUMENT header. */
  headerMedia: templateHeaderMediaSchema.optional(),
  buttons: z.array(templateButtonValueSchema).max(10).optional().default([]),
});
export type TemplateSendInput = z.infer<typeof templateSendSchema>;

/**
 * A template send as it is stored on its message and handed to the Cloud API: the values by part,
 * the names of a NAMED template's variables, a media header's file and the buttons' values.
 */
export interface CloudTemplateSend {
  name: string;
  language: string;
  header?: string[];
  body?: string[];
  /** A NAMED template: the names of the header's and the body's values, in their order. */
  headerNames?: string[];
  bodyNames?: string[];
  headerMedia?: { type: "image" | "video" | "document"; link?: string; id?: string; filename?: string };
  buttons?: { index: number; type: "url" | "quick_reply"; value: string }[];
}

/** The variables of a template text, in order of first appearance: "1", "2"… or {{names}}. */
export function templateParams(text: string | null | undefined): string[] {
  const names: string[] = [];
  for (const m of (text ?? "").matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g))
    if (!names.includes(m[1]!)) names.push(m[1]!);
  return names;
}

/** How many distinct {{n}} variables a template text has (Meta numbers them 1…n). */
export function templateVariableCount(text: string | null | undefined): number {
  const numbers = new Set([...(text ?? "").matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1])));
  return numbers.size;
}

/**
 * A template text with its variables filled, as the customer will read it: {{n}} by position, or
 * {{name}} by `names` (a NAMED template's, in the order of `values`).
 */
export function fillTemplate(text: string, values: readonly string[], names?: readonly string[]): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, key: string) => {
    const i = names ? names.indexOf(key) : /^\d+$/.test(key) ? Number(key) - 1 : -1;
    return i >= 0 ? (values[i] ?? whole) : whole;
  });
}
