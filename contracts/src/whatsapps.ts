import { z } from "zod";
import { rowId, timestamp } from "./answers.js";
import { dbId, sizedText } from "./validation.js";

/** Connection status values, as the connections list shows them. */
export const WHATSAPP_STATUSES = [
  "OPENING",
  "qrcode",
  "PAIRING",
  "CONNECTED",
  "DISCONNECTED",
  "TIMEOUT",
] as const;
export type WhatsappStatus = (typeof WHATSAPP_STATUSES)[number];
/** Statuses that light the red '!' on the side menu's Connections entry. */
export const ALERT_STATUSES: readonly WhatsappStatus[] = [
  "qrcode",
  "PAIRING",
  "DISCONNECTED",
  "TIMEOUT",
  "OPENING",
];

/** "beta" is WhatsApp Web (Baileys), the spec's default; "cloud" the official Cloud API; "simulator" plays WhatsApp in-process. */
export const PROVIDERS = ["beta", "cloud", "simulator"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** One day of a connection's opening hours ("" times: closed that day). */
export const whatsappScheduleEntrySchema = z.object({
  weekday: z.string(),
  weekdayEn: z.string(),
  startTime: z.string(),
  endTime: z.string(),
});
export type WhatsappScheduleEntry = z.infer<typeof whatsappScheduleEntrySchema>;

/**
 * A queue a connection serves, as a connection carries it: the queues' own brief shape (`QueueDTO`,
 * queues.ts), spelled here so this file does not depend on the queues' answers.
 */
const connectionQueueSchema = z.object({ id: rowId, name: z.string(), color: z.string() });

/** The session part of a connection, as `company-{id}-whatsappSession` carries it. */
export const whatsappSessionSchema = z
  .object({
    id: rowId,
    status: z.enum(WHATSAPP_STATUSES),
    /** The QR code's text to scan while the status is `qrcode`; "" clears it. */
    qrcode: z.string(),
    retries: z.number().int(),
    number: z.string(),
    updatedAt: timestamp,
  })
  .meta({
    id: "WhatsappSession",
    description:
      "A connection's session: its status, QR code and number, as company-{id}-whatsappSession carries it",
  });
export type WhatsappSessionDTO = z.infer<typeof whatsappSessionSchema>;

/** A connection as every user of the company may see it: no token, no provider secrets. */
export const whatsappSchema = whatsappSessionSchema
  .extend({
    name: z.string(),
    provider: z.enum(PROVIDERS),
    isDefault: z.boolean(),
    greetingMessage: z.string(),
    complationMessage: z.string(),
    outOfHoursMessage: z.string(),
    ratingMessage: z.string(),
    expiresInactiveMessage: z.string(),
    expiresTicket: z.number().int(),
    timeUseBotQueues: z.number().int(),
    maxUseBotQueues: z.number().int(),
    transferQueueId: rowId.nullable(),
    timeToTransfer: z.number().int(),
    promptId: rowId.nullable(),
    integrationId: rowId.nullable(),
    schedules: z.array(whatsappScheduleEntrySchema),
    queues: z.array(connectionQueueSchema),
    createdAt: timestamp,
  })
  .meta({
    id: "Whatsapp",
    description: "A WhatsApp connection as every user of the company sees it: no token, no provider secrets",
  });
export type WhatsappDTO = z.infer<typeof whatsappSchema>;

/**
 * What an admin's connection dialog loads: adds the API token's hint and the Cloud settings (secrets
 * only as "set").
 */
export const whatsappDetailSchema = whatsappSchema
  .extend({
    /**
     * Always "": the API token is shown only by POST /whatsapp/{id}/token, which makes one (a new
     * connection has none until then). Kept so the dialog's form round-trips it.
     */
    token: z.literal(""),
    /** The API token's last 4 characters ("" when the connection has none). */
    tokenHint: z.string(),
    cloud: z.object({
      phoneNumberId: z.string(),
      wabaId: z.string(),
      verifyToken: z.string(),
      accessTokenSet: z.boolean(),
      appSecretSet: z.boolean(),
      /** The address to give Meta as the Cloud API webhook of this connection. */
      webhookUrl: z.string(),
    }),
  })
  .meta({
    id: "WhatsappDetail",
    description:
      "A connection as an admin's dialog loads it: the API token's hint and the Cloud settings (secrets only as set)",
  });
export type WhatsappDetailDTO = z.infer<typeof whatsappDetailSchema>;

/** POST /whatsapp/{id}/token: the connection's new API token, shown this once, and its hint. */
export const whatsappTokenSchema = z
  .object({
    token: z.string(),
    tokenHint: z.string(),
  })
  .meta({
    id: "WhatsappToken",
    description: "A connection's new API token, answered this once, and its hint (its last 4 characters)",
  });
export type WhatsappTokenDTO = z.infer<typeof whatsappTokenSchema>;

const scheduleEntry = z.object({
  weekday: z.string().max(30),
  weekdayEn: z.string().max(30),
  startTime: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "validation.invalid")
    .or(z.literal("")),
  endTime: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "validation.invalid")
    .or(z.literal("")),
});

const longText = z.string().max(4096, "validation.tooLong");

export const whatsappSaveSchema = z.object({
  name: sizedText(2, 50),
  provider: z.enum(PROVIDERS, "validation.invalid").default("beta"),
  isDefault: z.boolean().default(false),
  greetingMessage: longText.default(""),
  complationMessage: longText.default(""),
  outOfHoursMessage: longText.default(""),
  ratingMessage: longText.default(""),
  expiresInactiveMessage: longText.default(""),
  /**
   * Kept for the clients that send the dialog's field back: blank is ignored. The server generates
   * the token (shown once; POST /whatsapp/{id}/token for a new one), so a value here is refused
   * with 400 ERR_WAPP_TOKEN_NOT_SETTABLE.
   */
  token: z.string().trim().max(200, "validation.tooLong").default(""),
  expiresTicket: z
    .number("validation.invalid")
    .int("validation.invalid")
    .min(0, "validation.invalid")
    .max(8760, "validation.invalid")
    .default(0),
  timeUseBotQueues: z
    .number("validation.invalid")
    .int("validation.invalid")
    .min(0, "validation.invalid")
    .max(100_000, "validation.invalid")
    .default(0),
  maxUseBotQueues: z
    .number("validation.invalid")
    .int("validation.invalid")
    .min(0, "validation.invalid")
    .max(1000, "validation.invalid")
    .default(3),
  queueIds: z.array(dbId).max(100).default([]),
  transferQueueId: dbId.nullable().default(null),
  timeToTransfer: z
    .number("validation.invalid")
    .int("validation.invalid")
    .min(0, "validation.invalid")
    .max(100_000, "validation.invalid")
    .default(0),
  promptId: dbId.nullable().default(null),
  integrationId: dbId.nullable().default(null),
  schedules: z.array(scheduleEntry).max(7).default([]),
  cloud: z
    .object({
      phoneNumberId: z.string().trim().max(100).default(""),
      wabaId: z.string().trim().max(100).default(""),
      verifyToken: z.string().trim().max(200).default(""),
      /** Empty keeps the stored secret. */
      accessToken: z.string().trim().max(1000).default(""),
      appSecret: z.string().trim().max(200).default(""),
    })
    .optional(),
});
export type WhatsappSaveInput = z.infer<typeof whatsappSaveSchema>;
