import crypto from "node:crypto";
import { z } from "zod";
import { type BotAdapter, BotError, type BotOutcome, type BotReply } from "./contract.js";
import { postJson } from "./http.js";
import type { IntegrationConfig } from "./bindings.js";

/**
 * N8N and generic webhooks. Each customer turn is POSTed as JSON to the integration's `urlN8N`:
 *
 *   { "event": "start" | "message",
 *     "message": { "text": "...", "media": [{ "kind", "url", "mimetype", "name" }] },
 *     "contact": { "id", "name", "number" }, "ticket": { "id", "uuid", "queueId", "status" },
 *     "connection": { "id", "name", "number" }, "company": { "id", "name" } }
 *
 * signed: `X-Atende-Timestamp: <unix seconds>` and `X-Atende-Signature: sha256=<hex HMAC-SHA256 of
 * "<timestamp>.<raw body>" with the integration's secret>`; retried twice when the request never got
 * there. The answer (any field may be missing; an empty body is no reply):
 *
 *   { "replies": [ "text" | { "type": "text", "text" }
 *                  | { "type": "image"|"audio"|"video"|"file", "url", "caption"?, "name"? }
 *                  | { "type": "choices", "text", "options": ["...", "..."] } ],
 *     "action": "end" | "transfer" | "close", "queueId"?, "userId"? }
 *
 * `transfer` moves the ticket to `queueId` and/or `userId` (of the same company; anything else is
 * ignored and the ticket stays in its queue); `end` stops the bot and leaves the ticket to people.
 */
const replySchema = z.union([
  z.string().transform((text): BotReply => ({ type: "text", text })),
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    type: z.enum(["image", "audio", "video", "file"]),
    url: z.string().url(),
    caption: z.string().optional(),
    name: z.string().optional(),
  }),
  z.object({ type: z.literal("choices"), text: z.string().default(""), options: z.array(z.string()).min(1) }),
]);

const answerSchema = z.object({
  replies: z.array(replySchema).default([]),
  action: z.enum(["end", "transfer", "close"]).optional(),
  queueId: z.coerce.number().int().positive().nullish(),
  userId: z.coerce.number().int().positive().nullish(),
});

export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export const webhookAdapter: BotAdapter<IntegrationConfig> = {
  takesMedia: true,
  async turn(config, input, ctx): Promise<BotOutcome> {
    if (!config.urlN8N) throw new BotError("the integration has no URL");
    const body = JSON.stringify({
      event: input.start && !input.text && input.media.length === 0 ? "start" : "message",
      message: { text: input.text, media: input.media },
      contact: ctx.contact,
      ticket: ctx.ticket,
      connection: ctx.connection,
      company: ctx.company,
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const raw = await postJson(ctx.outbound, config.urlN8N, null, {
      signal: ctx.signal,
      raw: body,
      retries: 2,
      headers: {
        "x-atende-timestamp": timestamp,
        "x-atende-signature": signWebhook(config.secret, timestamp, body),
      },
    });
    const parsed = answerSchema.safeParse(raw ?? {});
    if (!parsed.success)
      throw new BotError(`the webhook's answer is not understood: ${parsed.error.message}`);
    const a = parsed.data;
    return {
      replies: a.replies as BotReply[],
      action:
        a.action === "transfer"
          ? { type: "transfer", queueId: a.queueId ?? null, userId: a.userId ?? null }
          : a.action
            ? { type: a.action }
            : undefined,
    };
  },
};
