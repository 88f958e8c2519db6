import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { templateSendSchema } from "./cloud.js";
import { parseSendAt } from "./schedules.js";
import { idOf, noNul, optionalEmpty, pageNumber, searchText, sizedText } from "./validation.js";

/**
 * Campaigns (back-office: Campaigns, /campaigns-config, the report; issue 18 sections 4-7): a
 * message in up to five variants sent to every contact of a contact list or of a tag, through one
 * connection, by a paced durable sender. One shipping row per recipient records what it got.
 */

export const CAMPAIGN_STATUSES = [
  "INATIVA",
  "PROGRAMADA",
  "EM_ANDAMENTO",
  "CANCELADA",
  "FINALIZADA",
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** The statuses' labels (spec section 4). */
export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  INATIVA: "Inativa",
  PROGRAMADA: "Programada",
  EM_ANDAMENTO: "Em Andamento",
  CANCELADA: "Cancelada",
  FINALIZADA: "Finalizada",
};

export const CAMPAIGN = {
  nameMin: 2,
  nameMax: 50,
  variants: 5,
  messageMax: 4096,
  /** Editable while PROGRAMADA only when the scheduled time is more than this ahead. */
  editableLeadMs: 60 * 60_000,
  placeholders: ["{nome}", "{numero}", "{email}"],
  /** The report reloads this long after FINALIZADA arrives on the live channel. */
  reportReloadMs: 5000,
} as const;

export const CAMPAIGN_VARIANT_INDEXES = [1, 2, 3, 4, 5] as const;
export type CampaignMessageKey = `message${1 | 2 | 3 | 4 | 5}`;
export type CampaignConfirmationKey = `confirmationMessage${1 | 2 | 3 | 4 | 5}`;

/**
 * What a recipient's row says: waiting, waiting for the answer to the confirmation, handed over, not
 * sent; `unconfirmed`: the confirmation was not answered within the settings' confirmationTimeoutHours
 * (the message is never sent to them, and the campaign can finish).
 */
export const SHIPPING_STATES = [
  "pending",
  "awaiting_confirmation",
  "sent",
  "skipped",
  "failed",
  "unconfirmed",
] as const;
export type ShippingState = (typeof SHIPPING_STATES)[number];

/** A row a campaign points at, by id and name (its connection, contact list or tag). */
const namedRef = z.object({ id: rowId, name: z.string() });

/**
 * A Cloud API campaign's template: sent instead of the message to a recipient outside the 24-hour
 * window ({nome}, {numero}, {email} in its values are filled per recipient); `text` is the
 * template's text with those values, as the ticket shows it.
 */
export const campaignTemplateSchema = z.object({
  name: z.string(),
  language: z.string(),
  header: z.array(z.string()),
  body: z.array(z.string()),
  headerMedia: z
    .object({ link: z.string().optional(), id: z.string().optional(), filename: z.string().optional() })
    .nullable(),
  buttons: z.array(z.object({ index: z.number().int(), value: z.string() })),
  text: z.string(),
});
export type CampaignTemplateDTO = z.infer<typeof campaignTemplateSchema>;

export const campaignSchema = z
  .object({
    id: rowId,
    name: z.string(),
    message1: z.string(),
    message2: z.string(),
    message3: z.string(),
    message4: z.string(),
    message5: z.string(),
    confirmationMessage1: z.string(),
    confirmationMessage2: z.string(),
    confirmationMessage3: z.string(),
    confirmationMessage4: z.string(),
    confirmationMessage5: z.string(),
    status: z.enum(CAMPAIGN_STATUSES),
    confirmation: z.boolean(),
    scheduledAt: timestamp.nullable(),
    completedAt: timestamp.nullable(),
    startedAt: timestamp.nullable(),
    whatsappId: rowId.nullable(),
    contactListId: rowId.nullable(),
    tagListId: rowId.nullable(),
    fileListId: rowId.nullable(),
    companyId: rowId,
    mediaPath: z.string().nullable(),
    mediaName: z.string().nullable(),
    /** Where the media is read (with the session); null without one. */
    mediaUrl: z.string().nullable(),
    contactList: namedRef.nullable(),
    whatsapp: namedRef.nullable(),
    tagList: namedRef.nullable(),
    /** Set while the sender waits: ERR_* code of why (connection down, outside the window, daily cap). */
    pausedReason: z.string().nullable(),
    /** Cloud API: the template sent to recipients outside the 24-hour window (none: they are skipped). */
    template: campaignTemplateSchema.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "Campaign",
    description: "A campaign, as every answer and the company-{id}-campaign event carry it",
  });
export type CampaignDTO = z.infer<typeof campaignSchema>;

/** GET /campaigns/ (the answer of this API family: records, count, hasMore). */
export const campaignsPageSchema = pageOf("records", campaignSchema).meta({
  id: "CampaignsPage",
  description: "A page of campaigns",
});
export type CampaignsPage = z.infer<typeof campaignsPageSchema>;

/** A recipient as the report lists it. `ack`: the campaign message's ack (1 sent, 2 delivered, 3 read). */
export const campaignShippingSchema = z
  .object({
    id: rowId,
    campaignId: rowId,
    contactId: rowId.nullable(),
    number: z.string(),
    name: z.string(),
    email: z.string(),
    state: z.enum(SHIPPING_STATES),
    /** Which of the campaign's messages (1-5) it got or gets. */
    variant: z.number().int().nullable(),
    message: z.string().nullable(),
    confirmationMessage: z.string().nullable(),
    confirmationRequestedAt: timestamp.nullable(),
    confirmedAt: timestamp.nullable(),
    deliveredAt: timestamp.nullable(),
    ack: z.number().int().nullable(),
    /** Why it was skipped or failed: an ERR_* code, optionally ": " and details. */
    error: z.string().nullable(),
  })
  .meta({
    id: "CampaignShipping",
    description: "A campaign's recipient and what it got, as the report lists it",
  });
export type CampaignShippingDTO = z.infer<typeof campaignShippingSchema>;

const tally = z.number().int().nonnegative();

/**
 * The report's totals (a recipient counts once in `pending`, `awaitingConfirmation`, `sent`,
 * `unconfirmed`, `skipped` or `failed`).
 */
export const campaignTotalsSchema = z
  .object({
    total: tally,
    /** Recipients that can be sent to (not skipped). */
    valid: tally,
    pending: tally,
    awaitingConfirmation: tally,
    sent: tally,
    /** Of the sent, acknowledged delivered (ack ≥ 2) and read (ack ≥ 3). */
    delivered: tally,
    read: tally,
    confirmationRequested: tally,
    confirmed: tally,
    /** Asked to confirm and never answered in time: not sent. */
    unconfirmed: tally,
    failed: tally,
    skipped: tally,
    optedOut: tally,
  })
  .meta({ id: "CampaignTotals", description: "A campaign report's totals: recipients by state" });
export type CampaignTotals = z.infer<typeof campaignTotalsSchema>;

/** GET /campaigns/{id}/report: the campaign, its totals and a page of its recipients. */
export const campaignReportSchema = z
  .object({
    campaign: campaignSchema,
    totals: campaignTotalsSchema,
    ...pageOf("records", campaignShippingSchema).shape,
  })
  .meta({
    id: "CampaignReport",
    description: "A campaign's report: the campaign, its totals and a page of its recipients",
  });
export type CampaignReportDTO = z.infer<typeof campaignReportSchema>;

export const campaignReportQuerySchema = z.object({
  pageNumber,
  state: z.enum(SHIPPING_STATES, "validation.invalid").optional(),
  searchParam: searchText(100),
});
export type CampaignReportQuery = z.infer<typeof campaignReportQuerySchema>;

/** GET /campaigns/audience: how many recipients an audience has, and how many of them opted out. */
export const campaignAudienceSchema = z.object({ total: tally, optedOut: tally }).meta({
  id: "CampaignAudience",
  description: "How many recipients an audience has, and how many of them opted out",
});
export type CampaignAudienceDTO = z.infer<typeof campaignAudienceSchema>;
export const campaignAudienceQuerySchema = z.object({
  contactListId: z.preprocess(emptyToNull, idOf().nullable()).optional(),
  tagListId: z.preprocess(emptyToNull, idOf().nullable()).optional(),
});

/**
 * `company-{id}-campaign`: a campaign made or changed (`record`), deleted (`id`), and, while it
 * runs, `progress` with one recipient's new state and the totals (the report fills live). The
 * totals come at most about once a second per campaign (null otherwise: keep the last ones, or
 * count the recipient's change yourself); the last send of a run always carries them.
 */
export type CampaignEventPayload =
  | { action: "create" | "update"; record: CampaignDTO }
  | { action: "delete"; id: number }
  | { action: "progress"; campaignId: number; totals: CampaignTotals | null; shipping: CampaignShippingDTO };

export interface CampaignServerEvents {
  [event: `company-${number}-campaign`]: (payload: CampaignEventPayload) => void;
}

/** Editable only when INATIVA, PROGRAMADA more than one hour ahead, or CANCELADA. */
export function isCampaignEditable(
  c: Pick<CampaignDTO, "status" | "scheduledAt">,
  now: Date = new Date(),
): boolean {
  if (c.status === "INATIVA" || c.status === "CANCELADA") return true;
  if (c.status !== "PROGRAMADA") return false;
  if (!c.scheduledAt) return true;
  return Date.parse(c.scheduledAt) - now.getTime() > CAMPAIGN.editableLeadMs;
}

export const mayCancelCampaign = (c: Pick<CampaignDTO, "status">) =>
  c.status === "EM_ANDAMENTO" || c.status === "PROGRAMADA";
export const mayRestartCampaign = (c: Pick<CampaignDTO, "status">) => c.status === "CANCELADA";

/** "", "Nenhuma", null: none (the forms of this API family send those for an empty select). */
function emptyToNull(v: unknown) {
  if (v === undefined) return undefined;
  if (v === null || v === "" || v === "Nenhuma" || v === "null" || v === 0 || v === "0") return null;
  return v;
}

const optionalId = z.preprocess(emptyToNull, idOf().nullable()).optional();

/** A message of the dialog; left empty (null, "" or false, as this API family's forms send it): none. */
const messageField = optionalEmpty(
  z
    .string("validation.invalid")
    .max(CAMPAIGN.messageMax, "validation.tooLong")
    .refine(noNul, "validation.invalid"),
  "",
);

const boolish = z.preprocess(
  (v) => (v === "true" ? true : v === "false" ? false : v),
  z.boolean("validation.invalid"),
);

/**
 * An ISO date-time with a zone, or a local one (the form's datetime-local, read in the company's
 * zone); empty: not scheduled.
 */
const scheduledAtField = optionalEmpty(
  z
    .string("validation.invalid")
    .refine((v) => !Number.isNaN(parseSendAt(v, "UTC").getTime()), "validation.invalid"),
  null,
);

const campaignFields = {
  name: sizedText(CAMPAIGN.nameMin, CAMPAIGN.nameMax),
  message1: messageField,
  message2: messageField,
  message3: messageField,
  message4: messageField,
  message5: messageField,
  confirmationMessage1: messageField,
  confirmationMessage2: messageField,
  confirmationMessage3: messageField,
  confirmationMessage4: messageField,
  confirmationMessage5: messageField,
  confirmation: boolish.optional(),
  scheduledAt: scheduledAtField,
  whatsappId: optionalId,
  contactListId: optionalId,
  tagListId: optionalId,
  fileListId: optionalId,
  /** Cloud API: the approved template for recipients outside the 24-hour window; null removes it. */
  template: templateSendSchema.nullable().optional(),
};

/**
 * POST /campaigns. A scheduled time makes it PROGRAMADA (it starts then); without one it stays
 * INATIVA. `status` and `companyId` sent by clients are ignored (the server decides them).
 */
export const campaignCreateSchema = z.object(campaignFields);
export type CampaignCreateInput = z.infer<typeof campaignCreateSchema>;

/** PUT /campaigns/{id}: a field left out keeps its value. */
export const campaignUpdateSchema = z.object({ ...campaignFields, name: campaignFields.name.optional() });
export type CampaignUpdateInput = z.infer<typeof campaignUpdateSchema>;

export const campaignListQuerySchema = z.object({ searchParam: searchText(100), pageNumber });

// ---- settings (/campaigns-config) ----

export const CAMPAIGN_MESSAGE_INTERVALS = [0, 5, 10, 15, 20] as const;
export const CAMPAIGN_LONGER_INTERVALS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
export const CAMPAIGN_DEFAULT_OPT_OUT_WORDS = ["SAIR", "PARAR", "STOP", "CANCELAR"] as const;

export interface CampaignVariable {
  key: string;
  value: string;
}

/** The settings as the sender reads them. Beyond the spec: the window, the daily cap and the opt-out words. */
export interface CampaignSettingsValues {
  /** Seconds: each wait is random between 0 and this. */
  messageInterval: number;
  /** After every this many sends, the wait is `greaterInterval` seconds (0: never). */
  longerIntervalAfter: number;
  greaterInterval: number;
  variables: CampaignVariable[];
  /** Hours (0-23) in the company's time zone; sends only from start to end (null: any time). */
  sendWindowStart: number | null;
  sendWindowEnd: number | null;
  /** Campaign messages per connection per day (company's day); 0: no cap. */
  dailyCap: number;
  /** Whole-message answers (any case) that opt the contact out of every future campaign. */
  optOutWords: string[];
  /**
   * Hours a recipient has to answer the confirmation request; unanswered by then, they are
   * `unconfirmed` (never sent the message) and the campaign can finish.
   */
  confirmationTimeoutHours: number;
}

export const CAMPAIGN_CONFIRMATION_TIMEOUT_HOURS = { default: 24, min: 1, max: 720 } as const;

export const CAMPAIGN_SETTINGS_DEFAULTS: CampaignSettingsValues = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  sendWindowStart: null,
  sendWindowEnd: null,
  dailyCap: 0,
  optOutWords: [...CAMPAIGN_DEFAULT_OPT_OUT_WORDS],
  confirmationTimeoutHours: CAMPAIGN_CONFIRMATION_TIMEOUT_HOURS.default,
};

const seconds = z.coerce.number("validation.invalid").int("validation.invalid").min(0).max(3600);
const hour = z.preprocess(
  (v) => (v === "" ? null : v),
  z.coerce.number("validation.invalid").int("validation.invalid").min(0).max(23).nullable(),
);
const variableKey = z
  .string("validation.invalid")
  .trim()
  .min(1, "validation.required")
  .max(40, "validation.tooLong")
  .regex(/^[\p{L}\p{N}_-]+$/u, "validation.invalid");

export const campaignSettingsInputSchema = z.object({
  messageInterval: seconds.optional(),
  longerIntervalAfter: z.coerce.number("validation.invalid").int().min(0).max(10_000).optional(),
  greaterInterval: seconds.optional(),
  variables: z
    .array(
      z.object({
        key: variableKey,
        value: z.string("validation.invalid").max(1000, "validation.tooLong").refine(noNul),
      }),
    )
    .max(100, "validation.tooLong")
    .optional(),
  sendWindowStart: hour.optional(),
  sendWindowEnd: hour.optional(),
  dailyCap: z.coerce.number("validation.invalid").int().min(0).max(1_000_000).optional(),
  optOutWords: z
    .array(z.string().trim().min(1).max(40).refine(noNul))
    .max(50, "validation.tooLong")
    .optional(),
  confirmationTimeoutHours: z.coerce
    .number("validation.invalid")
    .int("validation.invalid")
    .min(CAMPAIGN_CONFIRMATION_TIMEOUT_HOURS.min, "validation.invalid")
    .max(CAMPAIGN_CONFIRMATION_TIMEOUT_HOURS.max, "validation.invalid")
    .optional(),
});
export type CampaignSettingsInput = z.infer<typeof campaignSettingsInputSchema>;

/** GET /campaign-settings answers the stored rows: key and its JSON value (this API family's shape). */
export const campaignSettingRowSchema = z
  .object({
    id: rowId,
    key: campaignSettingsInputSchema.keyof(),
    /** The setting's value as JSON text ("20", "[\"SAIR\"]"). */
    value: z.string(),
    companyId: rowId,
  })
  .meta({
    id: "CampaignSetting",
    description: "A stored campaign setting: its key and its value as JSON text",
  });
export type CampaignSettingRow = z.infer<typeof campaignSettingRowSchema>;

/** POST /campaign-settings {settings}. */
export const campaignSettingsBodySchema = z.object({ settings: campaignSettingsInputSchema });

/** The settings from GET /campaign-settings' rows (defaults for what is not stored or unreadable). */
export function readCampaignSettings(rows: { key: string; value: string }[]): CampaignSettingsValues {
  const out: CampaignSettingsValues = {
    ...CAMPAIGN_SETTINGS_DEFAULTS,
    optOutWords: [...CAMPAIGN_DEFAULT_OPT_OUT_WORDS],
  };
  for (const row of rows) {
    if (!(row.key in CAMPAIGN_SETTINGS_DEFAULTS)) continue;
    let value: unknown;
    try {
      value = JSON.parse(row.value);
    } catch {
      continue;
    }
    const key = row.key as keyof CampaignSettingsValues;
    const parsed = campaignSettingsInputSchema.shape[key].safeParse(value);
    if (parsed.success && parsed.data !== undefined)
      (out as unknown as Record<string, unknown>)[key] = parsed.data;
  }
  return out;
}

/** A custom variable is added only when its key is new (spec section 5). */
export function addCampaignVariable(list: CampaignVariable[], v: CampaignVariable): CampaignVariable[] {
  return list.some((x) => x.key === v.key) ? list : [...list, v];
}

/**
 * The text a recipient gets: {nome}, {numero}, {email} and the custom variables `{key}` replaced;
 * a placeholder with no value becomes "" (never left as `{nome}`), and the spaces it leaves are tidied.
 */
export function fillCampaignVariables(
  text: string,
  contact: { name?: string | null; number?: string | null; email?: string | null },
  variables: CampaignVariable[] = [],
): string {
  const values = new Map<string, string>();
  for (const v of variables) values.set(v.key.toLowerCase(), v.value);
  values.set("nome", contact.name?.trim() ?? "");
  values.set("numero", contact.number?.trim() ?? "");
  values.set("email", contact.email?.trim() ?? "");
  const filled = text.replace(/\{([\p{L}\p{N}_-]+)\}/gu, (whole, key: string) => {
    const value = values.get(key.toLowerCase());
    return value === undefined ? whole : value;
  });
  // "Olá {nome}, tudo bem?" with no name: "Olá, tudo bem?" rather than "Olá , tudo bem?".
  return filled
    .replace(/[ \t]+([,.!?;:])/g, "$1")
    .replace(/[ \t]{2,}/g, " ")
    .replace(/^[ \t]+|[ \t]+$/gm, "");
}

/** Whether a customer's answer is an opt-out word: the whole message, any case, spaces and final punctuation ignored. */
export function isOptOutAnswer(body: string, words: readonly string[]): boolean {
  const text = body
    .trim()
    .replace(/[.!]+$/, "")
    .trim()
    .toLocaleUpperCase("pt-BR");
  if (!text) return false;
  return words.some((w) => w.trim().toLocaleUpperCase("pt-BR") === text);
}
