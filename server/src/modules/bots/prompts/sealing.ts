import type { SecretBox } from "../../../lib/secretBox.js";
import type { PromptRow } from "./queries.js";

/** The AAD of each sealed column. */
export const PROMPT_SECRET_PURPOSE = { apiKey: "prompt.apiKey", voiceKey: "prompt.voiceKey" } as const;

/** A prompt's keys in plain text (for the bot runtime and the hints); null when none or unreadable. */
export function openPromptSecrets(
  box: SecretBox,
  row: PromptRow,
): { apiKey: string | null; voiceKey: string | null } {
  return {
    apiKey: box.open(PROMPT_SECRET_PURPOSE.apiKey, row.apiKeyEnc),
    voiceKey: row.voiceKeyEnc === null ? null : box.open(PROMPT_SECRET_PURPOSE.voiceKey, row.voiceKeyEnc),
  };
}
