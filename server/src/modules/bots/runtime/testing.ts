import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { secretBoxFor } from "../../../lib/secretBox.js";
import { botSessions, prompts, queueIntegrations, queues, whatsapps } from "../../../db/schema/index.js";
import { phoneSends } from "../../../test/channels.js";
import { type Script, eventually, ticketOf } from "../../../test/chatbot.js";
import type { TestContext } from "../../../test/harness.js";
import { SECRET_PURPOSES } from "./bindings.js";

/**
 * Bot scripts for the tests of this module: integrations and prompts stored as the back office
 * stores them (secrets sealed), bound to a connection or a queue, and what the customer received.
 */
export async function addIntegration(
  ctx: TestContext,
  companyId: number,
  values: Partial<typeof queueIntegrations.$inferInsert> & {
    authToken?: string;
    signingSecret?: string;
    jsonContent?: string;
  },
) {
  const box = secretBoxFor(ctx.deps.config);
  const { authToken, signingSecret, jsonContent, ...rest } = values;
  const [row] = await ctx.deps.db
    .insert(queueIntegrations)
    .values({
      companyId,
      name: `bot ${Math.random().toString(36).slice(2, 8)}`,
      typebotExpires: 10,
      typebotDelayMessage: 50,
      authTokenEnc: authToken ? box.seal(SECRET_PURPOSES.authToken, authToken) : null,
      signingSecretEnc: signingSecret ? box.seal(SECRET_PURPOSES.signingSecret, signingSecret) : null,
      jsonContentEnc: jsonContent ? box.seal(SECRET_PURPOSES.jsonContent, jsonContent) : null,
      ...rest,
    })
    .returning();
  return row!;
}

export async function addPrompt(
  ctx: TestContext,
  companyId: number,
  values: Partial<typeof prompts.$inferInsert> & { apiKey: string; voiceKey?: string },
) {
  const box = secretBoxFor(ctx.deps.config);
  const { apiKey, voiceKey, ...rest } = values;
  const [row] = await ctx.deps.db
    .insert(prompts)
    .values({
      companyId,
      name: `prompt ${Math.random().toString(36).slice(2, 8)}`,
      prompt: "Você é a assistente da loja.",
      apiKeyEnc: box.seal(SECRET_PURPOSES.apiKey, apiKey),
      voiceKeyEnc: voiceKey ? box.seal(SECRET_PURPOSES.voiceKey, voiceKey) : null,
      ...rest,
    })
    .returning();
  return row!;
}

/** Points the script's connection at a bot (as the connection dialog saves it) and drops the cached row. */
export async function bindConnection(
  ctx: TestContext,
  s: Script,
  link: { integrationId?: number | null; promptId?: number | null },
) {
  await ctx.deps.db
    .update(whatsapps)
    .set(link)
    .where(and(eq(whatsapps.companyId, s.company.id), eq(whatsapps.id, s.connection.id)));
  ctx.built.channels.connections.forget(s.connection.id);
}

export async function bindQueue(
  ctx: TestContext,
  companyId: number,
  queueId: number,
  link: { integrationId?: number | null; promptId?: number | null },
) {
  await ctx.deps.db
    .update(queues)
    .set(link)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
}

export async function sessionOf(ctx: TestContext, s: Script) {
  const t = await ticketOf(ctx, s);
  const [row] = await ctx.deps.db.select().from(botSessions).where(eq(botSessions.ticketId, t.id));
  return row ?? null;
}

/** The customer sends a file from their phone. */
export async function sendsMedia(
  ctx: TestContext,
  s: Script,
  media: { filename: string; mimetype: string; data: Buffer },
  body = "",
) {
  const res = await phoneSends(ctx, s.adminLogin, s.connection.id, {
    from: s.customer,
    body,
    media: { filename: media.filename, mimetype: media.mimetype, dataBase64: media.data.toString("base64") },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

/** Waits for the bot's session on the customer's ticket to reach `status`. */
export async function sessionBecomes(ctx: TestContext, s: Script, status: "active" | "stopped") {
  await eventually(async () => (await sessionOf(ctx, s))?.status === status);
  return (await sessionOf(ctx, s))!;
}
