import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { noNul } from "./validation.js";

/** 'texto': the prompt answers in text only; any other value is an Azure neural voice for voice notes. */
export const PROMPT_TEXT_VOICE = "texto";

/** Azure Speech's Brazilian Portuguese neural voices (back-office section 9). */
export const PROMPT_VOICES = [
  "pt-BR-FranciscaNeural",
  "pt-BR-AntonioNeural",
  "pt-BR-BrendaNeural",
  "pt-BR-DonatoNeural",
  "pt-BR-ElzaNeural",
  "pt-BR-FabioNeural",
  "pt-BR-GiovannaNeural",
  "pt-BR-HumbertoNeural",
  "pt-BR-JulioNeural",
  "pt-BR-LeilaNeural",
  "pt-BR-LeticiaNeural",
  "pt-BR-ManuelaNeural",
  "pt-BR-NicolauNeural",
  "pt-BR-ValerioNeural",
  "pt-BR-YaraNeural",
] as const;

/** The spec's defaults for a new prompt. */
export const PROMPT_DEFAULTS = {
  voice: PROMPT_TEXT_VOICE,
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
} as const;

export const PROMPT_LIMITS = {
  name: 100,
  prompt: 20_000,
  secret: 500,
  region: 50,
  maxTokens: 32_000,
  temperature: 2,
  maxMessages: 50,
} as const;

/**
 * A prompt as answers and the `company-{id}-prompt` event carry it. Keys are never sent whole:
 * `apiKeyHint` and `voiceKeyHint` hold their last four characters (null when none is stored).
 */
export const promptSchema = z
  .object({
    id: rowId,
    companyId: rowId,
    name: z.string(),
    prompt: z.string(),
    voice: z.string(),
    voiceKeyHint: z.string().nullable(),
    voiceRegion: z.string(),
    maxTokens: z.number().int(),
    temperature: z.number(),
    apiKeyHint: z.string().nullable(),
    queueId: rowId.nullable(),
    queue: z.object({ id: rowId, name: z.string() }).nullable(),
    maxMessages: z.number().int(),
    /** Tokens this prompt has used so far. */
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    totalTokens: z.number().int().nonnegative(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Prompt", description: "An AI prompt answering a queue's customers; its keys only as hints" });
export type PromptDTO = z.infer<typeof promptSchema>;

/** GET /prompt: the shape clients of this API family read (20 a page, by name). */
export const promptsPageSchema = pageOf("prompts", promptSchema).meta({
  id: "PromptsPage",
  description: "A page of the company's AI prompts",
});
export type PromptsPage = z.infer<typeof promptsPageSchema>;

export type PromptEvent =
  { action: "create" | "update"; prompt: PromptDTO } | { action: "delete"; promptId: number };

export const tokenCountsSchema = z
  .object({
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    totalTokens: z.number().int().nonnegative(),
    requests: z.number().int().nonnegative(),
  })
  .meta({ id: "TokenCounts", description: "AI tokens used and the requests that used them" });
export type TokenCounts = z.infer<typeof tokenCountsSchema>;

/** The AI tokens a company used: this month (UTC) and all time. GET /prompt/usage. */
export const tokenUsageSchema = z
  .object({ month: tokenCountsSchema, total: tokenCountsSchema })
  .meta({ id: "TokenUsage", description: "The AI tokens a company used this month (UTC) and all time" });
export type TokenUsageDTO = z.infer<typeof tokenUsageSchema>;

const text = (max: number) =>
  z.string("validation.invalid").trim().max(max, "validation.tooLong").refine(noNul, "validation.invalid");
const optionalText = (max: number) =>
  z.preprocess((v) => (v === null || v === undefined ? "" : v), text(max));

const numberIn = (min: number, max: number, fallback: number, int: boolean) =>
  z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? fallback : typeof v === "string" ? Number(v) : v),
    (int ? z.number("validation.invalid").int("validation.invalid") : z.number("validation.invalid"))
      .min(min, "validation.invalid")
      .max(max, "validation.invalid"),
  );

/**
 * The prompt dialog's body (POST and PUT alike). `queueId` may arrive empty: the service answers
 * 'Informe o setor' (ERR_PROMPT_QUEUE_REQUIRED), as the spec says. `apiKey` is required when
 * creating; left blank on an update (as is `voiceKey`), the stored key is kept.
 */
export const promptBodySchema = z.object({
  name: text(PROMPT_LIMITS.name).min(1, "validation.required"),
  prompt: text(PROMPT_LIMITS.prompt).min(1, "validation.required"),
  voice: z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? PROMPT_TEXT_VOICE : v),
    z.enum([PROMPT_TEXT_VOICE, ...PROMPT_VOICES], "validation.invalid"),
  ),
  voiceKey: optionalText(PROMPT_LIMITS.secret),
  voiceRegion: optionalText(PROMPT_LIMITS.region),
  maxTokens: numberIn(1, PROMPT_LIMITS.maxTokens, PROMPT_DEFAULTS.maxTokens, true),
  temperature: numberIn(0, PROMPT_LIMITS.temperature, PROMPT_DEFAULTS.temperature, false),
  apiKey: optionalText(PROMPT_LIMITS.secret),
  queueId: z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? null : typeof v === "string" ? Number(v) : v),
    z
      .number("validation.invalid")
      .int("validation.invalid")
      .positive("validation.invalid")
      .max(2_147_483_647, "validation.invalid")
      .nullable(),
  ),
  maxMessages: numberIn(1, PROMPT_LIMITS.maxMessages, PROMPT_DEFAULTS.maxMessages, true),
});
export type PromptBody = z.input<typeof promptBodySchema>;
export type PromptInput = z.output<typeof promptBodySchema>;

/** The last four characters of a secret, as answers show it. */
export function secretHint(secret: string | null | undefined): string | null {
  if (!secret) return null;
  return secret.length <= 4 ? "****" : secret.slice(-4);
}
