import { z } from "zod";
import { rowId } from "./answers.js";
import { idOf } from "./validation.js";

/** A form field's "" is "not given"; "true"/"1" and "false"/"0" are booleans (multipart carries text). */
const optionalId = z.preprocess((v) => (v === "" || v === null ? undefined : v), idOf().optional());
const flag = z.preprocess(
  (v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" || v === "" ? false : v),
  z.boolean("validation.invalid").optional().default(false),
);

/**
 * POST /api/messages/send: the spec's {number, body} (JSON) or {number, body, medias} (multipart,
 * the body being the first medium's caption), with the optional queue, agent, close flag and quoted
 * message (all of the token's company).
 */
export const apiSendSchema = z.object({
  number: z
    .string("validation.required")
    .trim()
    .min(1, "validation.required")
    .max(40, "validation.invalid")
    .regex(/^[\d\s()+\-.@a-z]+$/i, "validation.invalid"),
  body: z.string("validation.invalid").max(65_536, "validation.invalid").optional().default(""),
  queueId: optionalId,
  userId: optionalId,
  closeTicket: flag,
  quotedMsgId: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    idOf(Number.MAX_SAFE_INTEGER).optional(),
  ),
});
export type ApiSendInput = z.infer<typeof apiSendSchema>;

/** The answer: the Whaticket-style `mensagem`, plus what was created. */
export const publicSendResultSchema = z
  .object({
    mensagem: z.literal("Mensagem enviada"),
    /** The first (or only) message's id; `messageIds` lists them all (one per medium). */
    messageId: rowId,
    messageIds: z.array(rowId),
    ticketId: rowId,
    ticketUuid: z.string(),
    contactId: rowId,
  })
  .meta({
    id: "PublicSendResult",
    description:
      "What POST /api/messages/send sent: the Whaticket-style mensagem, the messages, their ticket and contact",
  });
export type ApiSendAnswer = z.infer<typeof publicSendResultSchema>;

/** The Idempotency-Key header: visible ASCII, 1 to 200 characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/** How long a stored Idempotency-Key (and its answer) is kept. */
export const IDEMPOTENCY_KEY_DAYS = 1;

/** Calls per token per minute on POST /api/messages/send. */
export const API_SEND_RATE_PER_MINUTE = 120;
