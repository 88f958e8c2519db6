import { PROMPT_DEFAULTS, promptBodySchema, type PromptBody, type PromptDTO } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldPath, Resolver } from "react-hook-form";

/** The dialog's fields as typed; the keys start blank (blank keeps the stored ones). */
export interface PromptFormValues {
  name: string;
  prompt: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: string;
  temperature: string;
  apiKey: string;
  queueId: number | null;
  maxMessages: string;
}
export type PromptField = FieldPath<PromptFormValues>;

export function initialPromptValues(prompt: PromptDTO | null): PromptFormValues {
  return {
    name: prompt?.name ?? "",
    prompt: prompt?.prompt ?? "",
    voice: prompt?.voice ?? PROMPT_DEFAULTS.voice,
    voiceKey: "",
    voiceRegion: prompt?.voiceRegion ?? "",
    maxTokens: String(prompt?.maxTokens ?? PROMPT_DEFAULTS.maxTokens),
    temperature: String(prompt?.temperature ?? PROMPT_DEFAULTS.temperature),
    apiKey: "",
    queueId: prompt?.queueId ?? null,
    maxMessages: String(prompt?.maxMessages ?? PROMPT_DEFAULTS.maxMessages),
  };
}

export const promptResolver = zodResolver(promptBodySchema) as unknown as Resolver<
  PromptFormValues,
  unknown,
  PromptBody
>;

const FIELDS = new Set(Object.keys(initialPromptValues(null)));
export const promptFieldOf = (path: string): PromptField | undefined =>
  FIELDS.has(path) ? (path as PromptField) : undefined;
