import { z } from "zod";
import type { QueueDTO } from "./queues.js";
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

export interface WhatsappScheduleEntry {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

/** A connection as every user of the company may see it: no token, no provider secrets. */
export interface WhatsappDTO {
  id: number;
  name: string;
  status: WhatsappStatus;
  qrcode: string;
  retries: number;
  number: string;
  provider: ProviderName;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  transferQueueId: number | null;
  timeToTransfer: number;
  promptId: number | null;
  integrationId: number | null;
  schedules: WhatsappScheduleEntry[];
  queues: QueueDTO[];
  createdAt: string;
  updatedAt: string;
}

/**
 * What an admin's connection dialog loads: adds the API token's hint and the Cloud settings (secrets
 * only as "set").
 */
export interface WhatsappDetailDTO extends WhatsappDTO {
  /**
   * Always "": the API token is shown only by POST /whatsapp/{id}/token, which makes one (a new
   * connection has none until then). Kept so the dialog's form round-trips it.
   */
  token: string;
  /** The API token's last 4 characters ("" when the connection has none). */
  tokenHint: string;
  cloud: {
    phoneNumberId: string;
    wabaId: string;
    verifyToken: string;
    accessTokenSet: boolean;
    appSecretSet: boolean;
    webhookUrl: string;
  };
}

/** POST /whatsapp/{id}/token: the connection's new API token, shown this once, and its hint. */
export interface WhatsappTokenDTO {
  token: string;
  tokenHint: string;
}

/** The session part of a connection, as `company-{id}-whatsappSession` carries it. */
export interface WhatsappSessionDTO {
  id: number;
  status: WhatsappStatus;
  qrcode: string;
  retries: number;
  number: string;
  updatedAt: string;
}

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
