import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { noNul } from "./validation.js";

/** The kinds of bot a queue or connection can hand its conversations to (back-office section 9). */
export const QUEUE_INTEGRATION_TYPES = ["dialogflow", "n8n", "webhook", "typebot"] as const;
export type QueueIntegrationType = (typeof QUEUE_INTEGRATION_TYPES)[number];
export const DEFAULT_QUEUE_INTEGRATION_TYPE: QueueIntegrationType = "typebot";

/** Dialogflow's languages. */
export const DIALOGFLOW_LANGUAGES = ["pt-BR", "en", "es"] as const;
export type DialogflowLanguage = (typeof DIALOGFLOW_LANGUAGES)[number];

/** The spec's defaults for a new integration. */
export const QUEUE_INTEGRATION_DEFAULTS = {
  type: DEFAULT_QUEUE_INTEGRATION_TYPE,
  language: "pt-BR" as DialogflowLanguage,
  typebotDelayMessage: 1000,
  typebotExpires: 1,
} as const;

export const QUEUE_INTEGRATION_LIMITS = {
  name: 100,
  text: 1000,
  url: 2000,
  jsonContent: 20_000,
  secret: 500,
  /** Minutes (one week). */
  typebotExpires: 10_080,
  /** Milliseconds between replies. */
  typebotDelayMessage: 60_000,
} as const;

/**
 * An integration as answers and the `company-{id}-queueIntegration` event carry it. Secrets are
 * never sent whole: `jsonContent` is always "" (the dialog leaves it blank to keep the stored one),
 * and the hints say what is stored (`jsonContentHint`: the service account's e-mail or "****";
 * tokens: their last four characters). A hint is null when nothing is stored.
 */
export const queueIntegrationSchema = z
  .object({
    id: rowId,
    companyId: rowId,
    type: z.enum(QUEUE_INTEGRATION_TYPES),
    name: z.string(),
    projectName: z.string(),
    jsonContent: z.literal(""),
    jsonContentHint: z.string().nullable(),
    language: z.string(),
    urlN8N: z.string(),
    typebotSlug: z.string(),
    typebotExpires: z.number().int(),
    typebotDelayMessage: z.number().int(),
    typebotKeywordFinish: z.string(),
    typebotKeywordRestart: z.string(),
    typebotUnknownMessage: z.string(),
    typebotRestartMessage: z.string(),
    /** Bearer token sent to the bot (private Typebot, protected n8n): its last four characters. */
    authTokenHint: z.string().nullable(),
    /** The HMAC-SHA256 key signing what is POSTed to n8n/webhook: its last four characters. */
    signingSecretHint: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "QueueIntegration",
    description: "A bot integration (Typebot, n8n, webhook, Dialogflow); its secrets only as hints",
  });
export type QueueIntegrationDTO = z.infer<typeof queueIntegrationSchema>;

/** GET /queueIntegration: a page of the integrations, by name. */
export const queueIntegrationsPageSchema = pageOf("queueIntegrations", queueIntegrationSchema).meta({
  id: "QueueIntegrationsPage",
  description: "A page of the company's bot integrations",
});
export type QueueIntegrationsPage = z.infer<typeof queueIntegrationsPageSchema>;

export type QueueIntegrationEvent =
  | { action: "create" | "update"; queueIntegration: QueueIntegrationDTO }
  | { action: "delete"; integrationId: number };

const text = (max: number) =>
  z.string("validation.invalid").trim().max(max, "validation.tooLong").refine(noNul, "validation.invalid");

/** Absent, null and "" all mean "no value" (the form sends what it holds). */
const optionalText = (max: number) =>
  z.preprocess((v) => (v === null || v === undefined ? "" : v), text(max));

const httpUrl = z
  .string("validation.invalid")
  .trim()
  .max(QUEUE_INTEGRATION_LIMITS.url, "validation.tooLong")
  .refine((v) => v === "" || /^https?:\/\/[^\s/]+/i.test(v), "validation.invalid");

const intIn = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? fallback : typeof v === "string" ? Number(v) : v),
    z
      .number("validation.invalid")
      .int("validation.invalid")
      .min(min, "validation.invalid")
      .max(max, "validation.invalid"),
  );

/**
 * The integration dialog's body, for POST and PUT alike (the dialog sends the whole form). Required
 * by type as the spec marks them: language for dialogflow; name and urlN8N for n8n, webhook and
 * typebot; typebotSlug for typebot. A name is required for every type (it names the item in lists).
 * Secrets (`jsonContent`, `authToken`, `signingSecret`) left blank on an update keep the stored ones.
 */
export const queueIntegrationBodySchema = z
  .object({
    type: z.enum(QUEUE_INTEGRATION_TYPES, "validation.required"),
    name: text(QUEUE_INTEGRATION_LIMITS.name).min(1, "validation.required"),
    projectName: optionalText(QUEUE_INTEGRATION_LIMITS.name),
    jsonContent: optionalText(QUEUE_INTEGRATION_LIMITS.jsonContent),
    language: optionalText(10),
    urlN8N: z.preprocess((v) => (v === null || v === undefined ? "" : v), httpUrl),
    typebotSlug: optionalText(QUEUE_INTEGRATION_LIMITS.name),
    typebotExpires: intIn(
      0,
      QUEUE_INTEGRATION_LIMITS.typebotExpires,
      QUEUE_INTEGRATION_DEFAULTS.typebotExpires,
    ),
    typebotDelayMessage: intIn(
      0,
      QUEUE_INTEGRATION_LIMITS.typebotDelayMessage,
      QUEUE_INTEGRATION_DEFAULTS.typebotDelayMessage,
    ),
    typebotKeywordFinish: optionalText(QUEUE_INTEGRATION_LIMITS.name),
    typebotKeywordRestart: optionalText(QUEUE_INTEGRATION_LIMITS.name),
    typebotUnknownMessage: optionalText(QUEUE_INTEGRATION_LIMITS.text),
    typebotRestartMessage: optionalText(QUEUE_INTEGRATION_LIMITS.text),
    authToken: optionalText(QUEUE_INTEGRATION_LIMITS.secret),
    signingSecret: optionalText(QUEUE_INTEGRATION_LIMITS.secret),
  })
  .superRefine((v, ctx) => {
    const need = (path: string, ok: boolean) => {
      if (!ok) ctx.addIssue({ code: "custom", path: [path], message: "validation.required" });
    };
    if (v.type === "dialogflow") {
      need("language", (DIALOGFLOW_LANGUAGES as readonly string[]).includes(v.language));
    } else {
      need("urlN8N", v.urlN8N !== "");
    }
    if (v.type === "typebot") need("typebotSlug", v.typebotSlug !== "");
  })
  .transform((v) => ({ ...v, projectName: integrationProjectName(v.type, v.name, v.projectName) }));
export type QueueIntegrationBody = z.input<typeof queueIntegrationBodySchema>;
export type QueueIntegrationInput = z.output<typeof queueIntegrationBodySchema>;

/** For n8n, webhook and typebot the project is the name itself (the spec sets it before saving). */
export function integrationProjectName(
  type: QueueIntegrationType,
  name: string,
  projectName: string,
): string {
  return type === "dialogflow" ? projectName : name;
}

/**
 * POST /queueIntegration/testSession: Dialogflow's test. `id` (ours) lets an edit dialog test with
 * the stored service account when its jsonContent field is left blank.
 */
export const dialogflowTestSchema = z.object({
  projectName: optionalText(QUEUE_INTEGRATION_LIMITS.name),
  jsonContent: optionalText(QUEUE_INTEGRATION_LIMITS.jsonContent),
  language: z.enum(DIALOGFLOW_LANGUAGES, "validation.required"),
  id: z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" ? Number(v) : v),
    z.number().int().positive().max(2_147_483_647).optional(),
  ),
});
export type DialogflowTestInput = z.infer<typeof dialogflowTestSchema>;

/** What a successful test answers: Dialogflow's reply to a "hello". */
export const dialogflowTestAnswerSchema = z
  .object({
    ok: z.literal(true),
    fulfillmentText: z.string(),
    intent: z.string(),
  })
  .meta({ id: "DialogflowTestAnswer", description: 'Dialogflow\'s reply to a test "hello"' });
export type DialogflowTestAnswer = z.infer<typeof dialogflowTestAnswerSchema>;
