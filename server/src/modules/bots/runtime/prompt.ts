import { type BotAdapter, BotError, type BotOutcome, type BotReply } from "./contract.js";
import { CALL_MAX_MS, type Outbound } from "../../../lib/outbound.js";
import { type ChatCompletion, chatCompletionsUrl, tokenUsage } from "../../../lib/openaiChat.js";
import { postJson } from "./http.js";
import type { PromptConfig } from "./bindings.js";

export interface AiEndpoints {
  /** An OpenAI-compatible API base: https://api.openai.com/v1, or a local model's. */
  openaiUrl: string;
  model: string;
  transcriptionModel: string;
  /** Azure Speech TTS endpoint, `{region}` replaced by the prompt's voiceRegion. */
  azureTtsUrl: string;
}

/**
 * How the model hands the customer to people, documented for whoever writes prompts: it calls the
 * `transfer_to_human` tool, or answers with this phrase (any case; the rest of its answer is still
 * sent). Either moves the ticket to the prompt's queue, waiting for an agent.
 */
export const HANDOVER_PHRASE = "Ação: Transferir para o setor de atendimento";
export const HANDOVER_TOOL = "transfer_to_human";

const HANDOVER_INSTRUCTION =
  `\n\nSe o cliente pedir para falar com uma pessoa, ou você não puder ajudar, chame a função ` +
  `${HANDOVER_TOOL} (ou responda exatamente: "${HANDOVER_PHRASE}").`;

/** A voice note Azure makes of one answer: a few hundred KB; far more is not a voice note. */
const VOICE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The TTS endpoint is the operator's unless the prompt's region goes into its host (Azure's
 * `https://{region}.tts...`): then the host is partly the company's, and judged like any other.
 */
const ttsTrustedBase = (template: string) =>
  /^[a-z]+:\/\/[^/]*\{region\}/i.test(template) ? undefined : template;

async function transcribe(
  outbound: Outbound,
  endpoints: AiEndpoints,
  apiKey: string,
  audio: { data: Buffer; mimetype: string; name: string },
  signal: AbortSignal,
): Promise<string> {
  const form = new FormData();
  form.set(
    "file",
    new Blob([new Uint8Array(audio.data)], { type: audio.mimetype }),
    audio.name || "audio.ogg",
  );
  form.set("model", endpoints.transcriptionModel);
  const res = await outbound.fetch(`${endpoints.openaiUrl.replace(/\/+$/, "")}/audio/transcriptions`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}` },
    body: form,
    signal,
    timeoutMs: CALL_MAX_MS,
    trustedBase: endpoints.openaiUrl,
  });
  const answer = (await res.json().catch(() => ({}))) as { text?: string };
  if (!res.ok || typeof answer.text !== "string") throw new BotError(`transcription failed (${res.status})`);
  return answer.text;
}

const xmlEscape = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!,
  );

/** Azure Speech's REST text-to-speech: the answer as an Ogg/Opus voice note. */
export async function synthesize(
  outbound: Outbound,
  endpoints: AiEndpoints,
  prompt: Pick<PromptConfig, "voice" | "voiceKey" | "voiceRegion">,
  text: string,
  signal: AbortSignal,
): Promise<Buffer> {
  if (!prompt.voiceKey || !prompt.voiceRegion) throw new BotError("the prompt's voice has no key or region");
  const lang = /^[a-z]{2}-[A-Z]{2}/.exec(prompt.voice)?.[0] ?? "pt-BR";
  const ssml =
    `<speak version='1.0' xml:lang='${lang}'><voice xml:lang='${lang}' name='${xmlEscape(prompt.voice)}'>` +
    `${xmlEscape(text)}</voice></speak>`;
  const url = endpoints.azureTtsUrl.replace("{region}", encodeURIComponent(prompt.voiceRegion));
  const res = await outbound.fetch(url, {
    method: "POST",
    headers: {
      "ocp-apim-subscription-key": prompt.voiceKey,
      "content-type": "application/ssml+xml",
      "x-microsoft-outputformat": "ogg-48khz-16bit-mono-opus",
      "user-agent": "atende",
    },
    body: ssml,
    signal,
    timeoutMs: CALL_MAX_MS,
    maxBytes: VOICE_MAX_BYTES,
    trustedBase: ttsTrustedBase(endpoints.azureTtsUrl),
  });
  if (!res.ok) {
    await res.body?.cancel(); // its socket goes now, not at the deadline
    throw new BotError(`Azure text-to-speech answered ${res.status}`);
  }
  return Buffer.from(await res.arrayBuffer());
}

/**
 * AI prompts on an OpenAI-compatible chat completion: the prompt as the system message, the
 * ticket's last `maxMessages` messages before this turn (customer as user, the business as
 * assistant, oldest first), then the customer's words; `maxTokens`, `temperature`. Audio from the
 * customer is transcribed first (`/audio/transcriptions`). With a voice other than 'texto' the answer
 * also goes as a voice note (Azure TTS). The hand-over (tool or phrase) moves the ticket to the
 * prompt's queue.
 */
export function promptAdapter(endpointsOf: () => AiEndpoints): BotAdapter<PromptConfig> {
  return {
    takesMedia: true,
    async turn(prompt, input, ctx): Promise<BotOutcome> {
      const endpoints = endpointsOf();
      if (!prompt.apiKey) throw new BotError("the prompt has no API key");
      const heard = [input.text.trim()];
      for (const audio of input.audio)
        heard.push(await transcribe(ctx.outbound, endpoints, prompt.apiKey, audio, ctx.signal));
      const words = heard.filter(Boolean).join("\n");
      if (!words) return { replies: [] };
      const history = await ctx.history(Math.max(0, prompt.maxMessages));
      const completion = await postJson<ChatCompletion>(
        ctx.outbound,
        chatCompletionsUrl(endpoints.openaiUrl),
        {
          model: endpoints.model,
          max_tokens: prompt.maxTokens,
          temperature: prompt.temperature,
          messages: [
            { role: "system", content: prompt.prompt + HANDOVER_INSTRUCTION },
            ...history
              .filter((m) => m.body.trim())
              .map((m) => ({ role: m.fromMe ? "assistant" : "user", content: m.body })),
            { role: "user", content: words },
          ],
          tools: [
            {
              type: "function",
              function: {
                name: HANDOVER_TOOL,
                description: "Hands the customer over to a human agent of the company.",
                parameters: { type: "object", properties: {} },
              },
            },
          ],
        },
        {
          signal: ctx.signal,
          headers: { authorization: `Bearer ${prompt.apiKey}` },
          trustedBase: endpoints.openaiUrl,
        },
      );
      const message = completion.choices?.[0]?.message;
      if (!message) throw new BotError("the model answered no choice");
      let text = message.content ?? "";
      let handover = (message.tool_calls ?? []).some((c) => c.function?.name === HANDOVER_TOOL);
      const phrase = new RegExp(HANDOVER_PHRASE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
      if (phrase.test(text)) {
        handover = true;
        text = text.replace(phrase, "").trim();
      }
      const replies: BotReply[] = [];
      if (text.trim()) {
        replies.push({ type: "text", text });
        if (prompt.voice && prompt.voice !== "texto")
          replies.push({
            type: "audio",
            data: await synthesize(ctx.outbound, endpoints, prompt, text, ctx.signal),
            mimetype: "audio/ogg",
            name: "resposta.ogg",
          });
      }
      return {
        replies,
        action: handover ? { type: "transfer", queueId: prompt.queueId, userId: null } : undefined,
        usage: tokenUsage(completion),
      };
    },
  };
}
