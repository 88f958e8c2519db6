/**
 * What every call to an OpenAI-compatible chat completions API shares (the prompts' bot turns in
 * bots/runtime/prompt.ts, the agents' AI help in modules/assist): the address under the configured
 * base, the answer's shape, and the tokens it billed. Each caller keeps its own request body and its
 * own reading of failures.
 */

export interface ChatCompletion {
  choices?: {
    message?: {
      content?: string | null;
      tool_calls?: { function?: { name?: string } }[];
    };
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** `{base}/chat/completions`, whatever trailing slashes the base was written with. */
export const chatCompletionsUrl = (base: string) => `${base.replace(/\/+$/, "")}/chat/completions`;

/** The tokens an answer says it billed; a total left out is the sum of its parts. */
export function tokenUsage(completion: ChatCompletion | undefined): TokenUsage {
  const u = completion?.usage ?? {};
  return {
    promptTokens: u.prompt_tokens ?? 0,
    completionTokens: u.completion_tokens ?? 0,
    totalTokens: u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0),
  };
}
