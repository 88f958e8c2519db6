import crypto from "node:crypto";
import { type Answer, type HttpFake, type Recorded, startHttpFake } from "./httpFake.js";

/**
 * Local stand-ins for the AI providers the prompts use:
 * - an OpenAI-compatible API: `POST /chat/completions` (Bearer key; `{model, messages, max_tokens,
 *   temperature, tools}` → `{choices: [{message: {role, content, tool_calls}}], usage}`) and
 *   `POST /audio/transcriptions` (multipart `file` + `model` → `{text}`); a wrong key answers 401 in
 *   OpenAI's error shape;
 * - Azure Speech text-to-speech: `POST /cognitiveservices/v1` with `Ocp-Apim-Subscription-Key`, SSML
 *   in, Ogg/Opus audio out (401 without the key).
 */
export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  max_tokens: number;
  temperature: number;
  tools?: { type: string; function: { name: string } }[];
}

export interface OpenAiFake extends HttpFake {
  chats(): ChatRequest[];
  transcriptions(): Recorded[];
}

export async function startOpenAiFake(opts: {
  apiKey: string;
  answer: (req: ChatRequest) => { content?: string | null; toolCall?: string };
  transcript?: string;
  /** A fixed port (an e2e spec points the server at it); a free one by default. */
  port?: number;
  /**
   * The provider failing: an answer given instead of the completion (a 429, a 500, a redirect, a
   * slow answer), asked on each chat request; undefined lets it through.
   */
  fail?: (req: ChatRequest) => Answer | undefined;
}): Promise<OpenAiFake> {
  const fake = await startHttpFake(
    (req) => {
      if (req.headers.authorization !== `Bearer ${opts.apiKey}`)
        return {
          status: 401,
          json: {
            error: {
              message: "Incorrect API key provided",
              type: "invalid_request_error",
              code: "invalid_api_key",
            },
          },
        };
      if (req.method === "POST" && req.path === "/v1/audio/transcriptions") {
        const form = req.raw.toString("latin1");
        if (
          !(req.headers["content-type"] ?? "").startsWith("multipart/form-data") ||
          !form.includes('name="file"')
        )
          return {
            status: 400,
            json: { error: { message: "file is required", type: "invalid_request_error" } },
          };
        return { json: { text: opts.transcript ?? "" } };
      }
      if (req.method === "POST" && req.path === "/v1/chat/completions") {
        const body = req.json as ChatRequest;
        const failure = opts.fail?.(body);
        if (failure) return failure;
        const a = opts.answer(body);
        const promptTokens = body.messages.reduce((n, m) => n + Math.ceil((m.content ?? "").length / 4), 0);
        const completionTokens = Math.ceil((a.content ?? "").length / 4) + (a.toolCall ? 5 : 0);
        return {
          json: {
            id: `chatcmpl-${crypto.randomBytes(6).toString("hex")}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [
              {
                index: 0,
                message: {
                  role: "assistant",
                  content: a.content ?? null,
                  ...(a.toolCall
                    ? {
                        tool_calls: [
                          { id: "call_1", type: "function", function: { name: a.toolCall, arguments: "{}" } },
                        ],
                      }
                    : {}),
                },
                finish_reason: a.toolCall ? "tool_calls" : "stop",
              },
            ],
            usage: {
              prompt_tokens: promptTokens,
              completion_tokens: completionTokens,
              total_tokens: promptTokens + completionTokens,
            },
          },
        };
      }
      return {
        status: 404,
        json: { error: { message: "Unknown request URL", type: "invalid_request_error" } },
      };
    },
    { port: opts.port },
  );
  return Object.assign(fake, {
    chats: () =>
      fake.requests
        .filter((r) => r.path === "/v1/chat/completions" && r.json)
        .map((r) => r.json as ChatRequest),
    transcriptions: () => fake.requests.filter((r) => r.path === "/v1/audio/transcriptions"),
  });
}

/** An Ogg page header with an OpusHead packet: what Azure's ogg-48khz-16bit-mono-opus starts with. */
export const OGG_OPUS = Buffer.concat([
  Buffer.from("OggS", "latin1"),
  Buffer.alloc(24),
  Buffer.from("OpusHead", "latin1"),
  Buffer.from([1, 1, 0x38, 1, 0x80, 0xbb, 0, 0, 0, 0, 0]),
  Buffer.alloc(64),
]);

export async function startAzureTtsFake(opts: { key: string }): Promise<HttpFake> {
  return startHttpFake((req) => {
    if (req.method !== "POST" || !req.path.startsWith("/cognitiveservices/v1"))
      return { status: 404, body: "" };
    if (req.headers["ocp-apim-subscription-key"] !== opts.key) return { status: 401, body: "" };
    if (!(req.headers["content-type"] ?? "").startsWith("application/ssml+xml"))
      return { status: 400, body: "" };
    return { body: OGG_OPUS, contentType: "audio/ogg" };
  });
}
