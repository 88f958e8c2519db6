import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CloudTemplateDTO, MessageDTO } from "@atende/contracts";
import { messages } from "../../db/schema/index.js";
import { type CloudSuite, customerWrites, eventually, startCloudSuite, statusOf } from "../../test/cloud.js";
import { caller, expectError, expectOk } from "../../test/calls.js";
import { newNumber } from "../../test/factories.js";

/**
 * What the composer sends on a Cloud API ticket, through the real pipeline to the fake Graph, which
 * refuses a template whose components do not fit it as Meta does: templates with a media header
 * (by link or uploaded media id), NAMED variables and URL / quick-reply buttons; and a recorded
 * voice note, which goes as a voice message (voice: true).
 */

const PNID = "106540352242201";
const WABA = "102290129340201";
const RECORDING_WEBM = fs.readFileSync(new URL("../../test/media/recording.webm", import.meta.url));
let suite: CloudSuite;
let ticketId: number;
let customer: string;
const call = caller(() => suite.ctx);
const sendsTo = () => suite.fake.requests.filter((r) => r.path === `/${PNID}/messages` && r.answeredId);

beforeAll(async () => {
  suite = await startCloudSuite({ pnid: PNID, waba: WABA });
  suite.fake.templates.set(WABA, [
    {
      name: "pedido_enviado",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      parameter_format: "NAMED",
      components: [
        { type: "HEADER", format: "IMAGE" },
        { type: "BODY", text: "Olá {{first_name}}, o pedido {{order_id}} saiu." },
        {
          type: "BUTTONS",
          buttons: [
            { type: "URL", text: "Rastrear", url: "https://loja.example/rastreio/{{1}}" },
            { type: "QUICK_REPLY", text: "Falar com atendente" },
          ],
        },
      ],
    },
    {
      name: "boleto",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      components: [
        { type: "HEADER", format: "DOCUMENT" },
        { type: "BODY", text: "Segue o boleto de {{1}}." },
      ],
    },
  ]);
  suite.ctx.built.startBackground();
  await eventually(async () => (await statusOf(suite.ctx, suite.cloud.id)) === "CONNECTED");
  customer = newNumber(77_000_000);
  const row = await customerWrites(suite, { whatsappId: suite.cloud.id, pnid: PNID }, customer);
  ticketId = row.ticketId;
  expectOk(await call("PUT", `/tickets/${ticketId}`, suite.admin, { status: "open", userId: suite.adminId }));
}, 30_000);
afterAll(async () => {
  await suite?.close();
});

async function sent(message: MessageDTO) {
  await eventually(async () => {
    const [row] = await suite.ctx.deps.db.select().from(messages).where(eq(messages.id, message.id));
    return row!.ack === 1 || row!.sendError !== null;
  });
  const [row] = await suite.ctx.deps.db.select().from(messages).where(eq(messages.id, message.id));
  expect(row!.sendError).toBeNull();
  return sendsTo().find((r) => r.answeredId === row!.wid)!.json as Record<string, unknown>;
}

describe("templates with media headers, named variables and buttons", () => {
  it("lists what each template takes", async () => {
    const list = expectOk<CloudTemplateDTO[]>(
      await call("GET", `/whatsapp/${suite.cloud.id}/templates`, suite.admin),
    );
    expect(list[0]).toMatchObject({
      name: "pedido_enviado",
      parameterFormat: "NAMED",
      headerFormat: "IMAGE",
      bodyParams: ["first_name", "order_id"],
      buttons: [
        { index: 0, type: "URL", text: "Rastrear", variables: 1 },
        { index: 1, type: "QUICK_REPLY", text: "Falar com atendente", variables: 0 },
      ],
    });
  });

  it("sends an image header by link, named body values and both buttons, as Meta's reference builds them", async () => {
    const message = expectOk<MessageDTO>(
      await call("POST", `/messages/${ticketId}/template`, suite.admin, {
        name: "pedido_enviado",
        language: "pt_BR",
        headerMedia: { link: "https://loja.example/pedido.jpg" },
        body: ["Ana", "A-123"],
        buttons: [
          { index: 0, value: "A-123" },
          { index: 1, value: "atendente" },
        ],
      }),
      201,
    );
    expect(message.body).toBe("[image: https://loja.example/pedido.jpg]\n\nOlá Ana, o pedido A-123 saiu.");
    expect((await sent(message)).template).toEqual({
      name: "pedido_enviado",
      language: { code: "pt_BR" },
      components: [
        {
          type: "header",
          parameters: [{ type: "image", image: { link: "https://loja.example/pedido.jpg" } }],
        },
        {
          type: "body",
          parameters: [
            { type: "text", text: "Ana", parameter_name: "first_name" },
            { type: "text", text: "A-123", parameter_name: "order_id" },
          ],
        },
        { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "A-123" }] },
        {
          type: "button",
          sub_type: "quick_reply",
          index: "1",
          parameters: [{ type: "payload", payload: "atendente" }],
        },
      ],
    });
  });

  it("sends a document header by uploaded media id, with its file name", async () => {
    const message = expectOk<MessageDTO>(
      await call("POST", `/messages/${ticketId}/template`, suite.admin, {
        name: "boleto",
        language: "pt_BR",
        headerMedia: { id: "1013859600285441", filename: "boleto.pdf" },
        body: ["março"],
      }),
      201,
    );
    expect((await sent(message)).template).toMatchObject({
      components: [
        {
          type: "header",
          parameters: [{ type: "document", document: { id: "1013859600285441", filename: "boleto.pdf" } }],
        },
        { type: "body", parameters: [{ type: "text", text: "março" }] },
      ],
    });
  });

  it("refuses what does not fit the template before anything is queued", async () => {
    const before = sendsTo().length;
    const send = (body: unknown) => call("POST", `/messages/${ticketId}/template`, suite.admin, body);
    const base = { name: "pedido_enviado", language: "pt_BR", body: ["Ana", "A-1"] };
    // No image, no URL value, a button that takes nothing, a header file on a template without one.
    expectError(
      await send({ ...base, buttons: [{ index: 0, value: "A-1" }] }),
      422,
      "ERR_WAPP_TEMPLATE_PARAMS",
    );
    expectError(
      await send({ ...base, headerMedia: { link: "https://loja.example/p.jpg" } }),
      422,
      "ERR_WAPP_TEMPLATE_PARAMS",
    );
    expectError(
      await send({
        ...base,
        headerMedia: { link: "https://loja.example/p.jpg" },
        buttons: [
          { index: 0, value: "A-1" },
          { index: 2, value: "x" },
        ],
      }),
      422,
      "ERR_WAPP_TEMPLATE_PARAMS",
    );
    expectError(
      await send({ name: "boleto", language: "pt_BR", body: ["x"], headerMedia: { link: "ftp://x" } }),
      400,
      "ERR_VALIDATION",
    );
    expect(sendsTo().length).toBe(before);
  });
});

describe("voice notes", () => {
  it("a recording from the composer goes as an Ogg/Opus audio with voice: true", async () => {
    const boundary = `----atende${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="audio-1.webm"\r\nContent-Type: audio/webm;codecs=opus\r\n\r\n`,
      ),
      RECORDING_WEBM,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await suite.ctx.app.inject({
      method: "POST",
      url: `/messages/${ticketId}`,
      payload,
      headers: { ...suite.admin.auth, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const [message] = await suite.ctx.deps.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, ticketId))
      .orderBy(messages.id)
      .then((rows) => rows.filter((r) => r.mediaType === "audio"));
    const json = await sent({ id: message!.id } as MessageDTO);
    expect(json).toMatchObject({ type: "audio", audio: { voice: true } });
    const upload = suite.fake.requests.find((r) => r.path === `/${PNID}/media`);
    expect(upload?.form?.fields.type).toBe("audio/ogg");
  });
});
