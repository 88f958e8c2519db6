import { type PromptDTO, secretHint } from "@atende/contracts";
import type { PromptWithQueue } from "./queries.js";

/** The one shape of a prompt, for HTTP answers and the `company-{id}-prompt` event: keys as hints only. */
export function presentPrompt(
  { prompt: row, queue }: PromptWithQueue,
  keys: { apiKey: string | null; voiceKey: string | null },
): PromptDTO {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    prompt: row.prompt,
    voice: row.voice,
    voiceKeyHint: secretHint(keys.voiceKey),
    voiceRegion: row.voiceRegion,
    maxTokens: row.maxTokens,
    temperature: row.temperature,
    apiKeyHint: secretHint(keys.apiKey),
    queueId: row.queueId,
    queue,
    maxMessages: row.maxMessages,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    totalTokens: row.totalTokens,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
