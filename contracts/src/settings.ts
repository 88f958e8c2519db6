import { z } from "zod";
import { noNul } from "./validation.js";

export const ENABLED_DISABLED = ["enabled", "disabled"] as const;
export const SCHEDULE_TYPES = ["disabled", "queue", "company"] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];
/** The spec's chatBotType ("chatBotType is text"): the one menu style the bot sends (bots/menu/bot.ts). */
export const CHATBOT_TYPES = ["text"] as const;
export type ChatbotType = (typeof CHATBOT_TYPES)[number];
export const TRIAL_DAYS = ["1", "2", "3", "4", "5", "6", "7"] as const;
/**
 * How many days of a WhatsApp Web connection's history are imported when it is linked (again): what
 * customers wrote while it was unlinked. "0" imports nothing.
 */
export const HISTORY_IMPORT_DAYS = ["0", "1", "2", "3", "5", "7", "15", "30"] as const;
export const DEFAULT_HISTORY_IMPORT_DAYS = 3;
/** The most days of history ever imported: older messages are dropped as soon as they are read. */
export const MAX_HISTORY_IMPORT_DAYS = 30;

/** True for a time zone the runtime knows by its IANA name (America/Sao_Paulo, UTC, ...). */
export function isValidTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone) || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const choice = (values: readonly [string, ...string[]]) => z.enum(values, "validation.invalid");
const freeText = z
  .string("validation.invalid")
  .trim()
  .max(500, "validation.tooLong")
  .refine(noNul, "validation.invalid");

/**
 * Every setting a company admin changes on the Options tab, with the values it accepts
 * (back-office spec, Setting keys and section 9).
 */
export const COMPANY_SETTING_VALUES = {
  userRating: choice(ENABLED_DISABLED),
  scheduleType: choice(SCHEDULE_TYPES),
  call: choice(ENABLED_DISABLED),
  CheckMsgIsGroup: choice(ENABLED_DISABLED),
  sendGreetingAccepted: choice(ENABLED_DISABLED),
  sendMsgTransfTicket: choice(ENABLED_DISABLED),
  sendGreetingMessageOneQueues: choice(ENABLED_DISABLED),
  chatBotType: choice(CHATBOT_TYPES),
  /** Message text in notifications (in-app and push): "disabled" shows who wrote, never what. */
  notificationPreview: choice(ENABLED_DISABLED),
  /** Days of history imported when a WhatsApp Web connection is linked (HISTORY_IMPORT_DAYS). */
  historyImportDays: choice(HISTORY_IMPORT_DAYS),
  /** The company's time zone: out-of-hours and dates are counted in it, never in the server's. */
  timezone: z.string("validation.invalid").trim().refine(isValidTimeZone, "validation.invalidTimeZone"),
} as const;

/** Platform settings and integration credentials: the super user's, kept on the platform company. */
export const SUPER_SETTING_VALUES = {
  allowregister: choice(ENABLED_DISABLED),
  viewregister: choice(ENABLED_DISABLED),
  trial: choice(TRIAL_DAYS),
  ipixc: freeText,
  tokenixc: freeText,
  ipmkauth: freeText,
  clientidmkauth: freeText,
  clientsecretmkauth: freeText,
  asaas: freeText,
  /** Billing: the gateway checkout uses ("asaas" or "pixKey"; "" none). */
  paymentGateway: z.enum(["", "asaas", "pixKey"], "validation.invalid"),
  /** Billing: the token Asaas sends in the `asaas-access-token` header of its webhooks. */
  asaasWebhookToken: freeText,
  /** Billing, plain Pix key gateway: the key, the receiver's name and city in the BR Code. */
  pixKey: freeText,
  pixMerchantName: freeText,
  pixMerchantCity: freeText,
  /** Billing: invoices open this many days before the due date (default 10). */
  invoiceDaysBefore: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, "validation.invalid"),
  /** Billing: days after the due date before a company is locked (default 0). */
  billingGraceDays: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, "validation.invalid"),
} as const;

/** The super user's billing settings (free text and numbers, not selects): set on the billing pages. */
export const BILLING_SETTING_KEYS = [
  "paymentGateway",
  "asaasWebhookToken",
  "pixKey",
  "pixMerchantName",
  "pixMerchantCity",
  "invoiceDaysBefore",
  "billingGraceDays",
] as const satisfies readonly (keyof typeof SUPER_SETTING_VALUES)[];
export type BillingSettingKey = (typeof BILLING_SETTING_KEYS)[number];

export type CompanySettingKey = keyof typeof COMPANY_SETTING_VALUES;
export type SuperSettingKey = keyof typeof SUPER_SETTING_VALUES;
export type SettingKey = CompanySettingKey | SuperSettingKey;

export const COMPANY_SETTING_KEYS = Object.keys(COMPANY_SETTING_VALUES) as CompanySettingKey[];
export const SUPER_SETTING_KEYS = Object.keys(SUPER_SETTING_VALUES) as SuperSettingKey[];

export function isCompanySettingKey(key: string): key is CompanySettingKey {
  return Object.prototype.hasOwnProperty.call(COMPANY_SETTING_VALUES, key);
}
export function isSuperSettingKey(key: string): key is SuperSettingKey {
  return Object.prototype.hasOwnProperty.call(SUPER_SETTING_VALUES, key);
}

/** PUT /settings/{key}: `{ key, value }` as clients of this API family send it; the path's key decides. */
export function settingUpdateSchema(key: SettingKey) {
  const value = isCompanySettingKey(key) ? COMPANY_SETTING_VALUES[key] : SUPER_SETTING_VALUES[key];
  return z.object({ key: z.string().optional(), value });
}

export const settingKeyParam = z.object({ key: z.string().min(1).max(64) });

export const settingSchema = z
  .object({
    key: z.string(),
    value: z.string(),
    /**
     * A secret setting (SECRET_SETTING_KEYS) is never answered in clear: its value is "" and this
     * tells what is stored (its last 4 characters as `secretHint` gives them; "" when none is stored).
     */
    hint: z.string().optional(),
  })
  .meta({ id: "Setting", description: "A setting's key and value; a secret one only as a hint" });
export type SettingDTO = z.infer<typeof settingSchema>;

/**
 * Settings that are secrets (API keys, tokens, client secrets), company or platform keys alike:
 * never answered in clear (GET /settings, PUT, the login answer's and the company's settings carry
 * a hint instead), a blank PUT keeps the stored one, and DELETE /settings/{key} removes it. The
 * integrations read them whole from the store. An address, a client ID or a Pix key is no secret.
 */
export const SECRET_SETTING_KEYS = [
  "tokenixc",
  "clientsecretmkauth",
  "asaas",
  "asaasWebhookToken",
] as const satisfies readonly SettingKey[];
export type SecretSettingKey = (typeof SECRET_SETTING_KEYS)[number];

export function isSecretSettingKey(key: string): key is SecretSettingKey {
  return (SECRET_SETTING_KEYS as readonly string[]).includes(key);
}
