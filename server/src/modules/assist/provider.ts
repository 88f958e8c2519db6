import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.js";
import { AppError } from "../../http/errors.js";
import {
  type ChatCompletion,
  type TokenUsage,
  chatCompletionsUrl,
  tokenUsage,
} from "../../lib/openaiChat.js";
import type { Outbound } from "../../lib/outbound.js";

/** One chat completion the AI help asks for: a system message and one user message. */
export interface AssistCompletion {
  system: string;
  user: string;
  maxTokens: number;
  temperature: number;
}

/** An answer is a few KB; 1 MiB is far more than any completion. */
const ANSWER_MAX_BYTES = 1024 * 1024;

/**
 * Asks the company's AI provider as the prompts do (bots/runtime/prompt.ts): the configured
 * OpenAI-compatible base and model, the prompt's key as Bearer, through the guarded client with the
 * base trusted. Any failure is an AppError the agent can read, never a 5xx: a refused key
 * (401/403) ERR_ASSIST_PROVIDER_KEY, a rate limit or no credits (429) ERR_ASSIST_PROVIDER_BUSY,
 * anything else (5xx, timeout, a refused address, no text) ERR_ASSIST_PROVIDER_FAILED. The key is
 * never logged.
 */
export async function complete(
  deps: {
    outbound: Outbound;
    config: Pick<Config, "OPENAI_BASE_URL" | "OPENAI_MODEL" | "AI_ASSIST_TIMEOUT_MS">;
    log: FastifyBaseLogger;
  },
  apiKey: string,
  ask: AssistCompletion,
): Promise<{ text: string; usage: TokenUsage }> {
  const { outbound, config, log } = deps;
  const base = config.OPENAI_BASE_URL;
  const url = chatCompletionsUrl(base);
  let status: number;
  let raw: string;
  try {
    const res = await outbound.fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        authorization: `Bearer ${apiKey}`,
      },
      body: JSON.stringify({
        model: config.OPENAI_MODEL,
        max_tokens: ask.maxTokens,
        temperature: ask.temperature,
        messages: [
          { role: "system", content: ask.system },
          { role: "user", content: ask.user },
        ],
      }),
      timeoutMs: config.AI_ASSIST_TIMEOUT_MS,
      maxBytes: ANSWER_MAX_BYTES,
      trustedBase: base,
    });
    status = res.status;
    raw = await res.text();
  } catch (err) {
    log.warn(
      { err: { name: (err as Error).name, message: (err as Error).message } },
      "assist: the AI provider could not be reached",
    );
    throw new AppError("ERR_ASSIST_PROVIDER_FAILED");
  }
  if (status < 200 || status > 299) {
    log.warn({ status }, "assist: the AI provider refused the request");
    if (status === 401 || status === 403) throw new AppError("ERR_ASSIST_PROVIDER_KEY");
    if (status === 429) throw new AppError("ERR_ASSIST_PROVIDER_BUSY");
    throw new AppError("ERR_ASSIST_PROVIDER_FAILED");
  }
  let answer: ChatCompletion;
  try {
    answer = JSON.parse(raw) as ChatCompletion;
  } catch {
    log.warn("assist: the AI provider answered something other than JSON");
    throw new AppError("ERR_ASSIST_PROVIDER_FAILED");
  }
  const content = answer?.choices?.[0]?.message?.content;
  return { text: typeof content === "string" ? content.trim() : "", usage: tokenUsage(answer) };
}
