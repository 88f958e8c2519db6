import { z } from "zod";
import { timestamp } from "./answers.js";

/** The simulator's HTTP API: a customer phone sends to a connection. */
export const simulatorSendSchema = z
  .object({
    from: z
      .string()
      .trim()
      .regex(/^\+?\d{8,15}$/, "validation.invalid"),
    name: z.string().trim().max(100).optional(),
    body: z.string().max(65_536).optional(),
    /** The message id on the phone; sending one id twice delivers the same message twice. */
    id: z.string().trim().min(1).max(128).optional(),
    quotedId: z.string().trim().max(128).optional(),
    media: z
      .object({
        filename: z.string().trim().min(1).max(255),
        mimetype: z.string().trim().min(3).max(255),
        // Standard base64 (padding optional): anything else would silently decode to other bytes.
        dataBase64: z
          .string()
          .min(1, "validation.required")
          .regex(/^[A-Za-z0-9+/]+={0,2}$/, "validation.invalid")
          .refine((v) => v.replace(/=+$/, "").length % 4 !== 1, "validation.invalid"),
      })
      .optional(),
    location: z
      .object({ latitude: z.number(), longitude: z.number(), name: z.string().max(255).optional() })
      .optional(),
    vcard: z.string().max(10_000).optional(),
    reaction: z.object({ targetId: z.string().min(1).max(128), emoji: z.string().max(16) }).optional(),
    edit: z.object({ targetId: z.string().min(1).max(128), body: z.string().min(1).max(65_536) }).optional(),
    revoke: z.object({ targetId: z.string().min(1).max(128) }).optional(),
    /** A missed call from this phone. */
    call: z.object({ isVideo: z.boolean().default(false) }).optional(),
    /** The customer is typing or recording. */
    presence: z.enum(["composing", "recording", "available"]).optional(),
  })
  .refine(
    (v) =>
      [v.body, v.media, v.location, v.vcard, v.reaction, v.edit, v.revoke, v.call, v.presence].some(
        (x) => x !== undefined && x !== "",
      ),
    { message: "validation.required", path: ["body"] },
  );
export type SimulatorSendInput = z.infer<typeof simulatorSendSchema>;

/** A message as a simulated phone sees it. */
export const simulatorPhoneMessageSchema = z
  .object({
    /** The message's id on the phone (what `quotedId`, reactions, edits and revokes name). */
    id: z.string(),
    direction: z.enum(["in", "out"]),
    body: z.string(),
    kind: z.string(),
    /** `mimetype` is the type the phone received it as; `voiceNote`: sent as a voice message (PTT). */
    media: z
      .object({
        filename: z.string(),
        mimetype: z.string(),
        url: z.string(),
        voiceNote: z.boolean().optional(),
      })
      .nullable(),
    quotedId: z.string().nullable(),
    ack: z.number().int(),
    isDeleted: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: "SimulatorPhoneMessage", description: "A message as a simulated phone sees it" });
export type SimulatorPhoneMessage = z.infer<typeof simulatorPhoneMessageSchema>;

/** A phone that has talked to a simulator connection (GET /simulator/{whatsappId}/phones), latest first. */
export const simulatorPhoneSchema = z
  .object({
    number: z.string(),
    /** The contact's name, or the number when the phone is no contact. */
    name: z.string(),
    lastMessageAt: timestamp,
  })
  .meta({ id: "SimulatorPhone", description: "A phone that has talked to a simulator connection" });

/** What a simulated phone's send or call answers: the message's id on the phone. */
export const simulatorSentSchema = z
  .object({ id: z.string() })
  .meta({ id: "SimulatorSent", description: "The id on the phone of what a simulated phone sent" });
