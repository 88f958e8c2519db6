import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeGraph, startFakeGraph } from "../../test/fakes/graph.js";
import { ChannelError } from "../provider.js";
import { type CloudCredentials, type GraphClient, createGraphClient } from "./graph.js";
import { parseRetryAfter } from "./graphErrors.js";

let fake: FakeGraph;
let graph: GraphClient;
let creds: CloudCredentials;

beforeAll(async () => {
  fake = await startFakeGraph();
  graph = createGraphClient({ baseUrl: fake.url });
  creds = { phoneNumberId: "106540352242922", accessToken: fake.accessToken };
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const hello = { to: "5511987654321", content: { type: "text" as const, text: { body: "Hello" } } };

/** The ChannelError a call fails with. */
async function failureOf(call: Promise<unknown>): Promise<ChannelError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ChannelError)) throw new Error(`expected a ChannelError, got ${String(err)}`);
  return err;
}

describe("graph client: sending", () => {
  it("sends a text as the documented JSON with the bearer token and answers the message id", async () => {
    const sent = await graph.sendMessage(creds, { ...hello, replyTo: "wamid.QUOTED" });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: "/106540352242922/messages",
      authorization: `Bearer ${fake.accessToken}`,
    });
    expect(request!.contentType).toMatch(/^application\/json/);
    expect(request!.json).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "5511987654321",
      context: { message_id: "wamid.QUOTED" },
      type: "text",
      text: { body: "Hello" },
    });
    expect(sent.id).toBe(request!.answeredId);
    expect(sent.id).toMatch(/^wamid\./);
  });

  it("marks a message as read", async () => {
    await graph.markRead(creds, "wamid.IN");
    expect(fake.requests[0]!.json).toEqual({
      messaging_product: "whatsapp",
      status: "read",
      message_id: "wamid.IN",
    });
  });

  it("uploads media as multipart with messaging_product and the bare mime type", async () => {
    const data = Buffer.from("OggS fake voice");
    const { id } = await graph.uploadMedia(creds, {
      data,
      mimetype: "audio/ogg; codecs=opus",
      filename: "voice.ogg",
    });
    const [request] = fake.requests;
    expect(request!.path).toBe("/106540352242922/media");
    expect(request!.form?.fields).toEqual({ messaging_product: "whatsapp", type: "audio/ogg" });
    expect(request!.form?.file).toMatchObject({ name: "voice.ogg", type: "audio/ogg" });
    expect(fake.media.get(id)?.data.equals(data)).toBe(true);
  });
});

describe("graph client: errors as ChannelErrors", () => {
  it("131047 (outside the 24-hour window) is final, ERR_WAPP_24H_WINDOW, with Meta's message", async () => {
    fake.failNext({ code: 131047 });
    const err = await failureOf(graph.sendMessage(creds, hello));
    expect(err).toMatchObject({ retryable: false, code: "ERR_WAPP_24H_WINDOW" });
    expect(err.message).toContain(
      "(#131047) Re-engagement message: Message failed to send because more than 24 hours",
    );
  });

  it("130429 (rate limit) is retryable after 30 s, or after the Retry-After Graph sent", async () => {
    fake.failNext({ code: 130429 });
    expect(await failureOf(graph.sendMessage(creds, hello))).toMatchObject({
      retryable: true,
      code: "ERR_SENDING_WAPP_MSG",
      retryAfterSeconds: 30,
    });
    fake.failNext({ code: 130429, retryAfter: "12" });
    expect(await failureOf(graph.sendMessage(creds, hello))).toMatchObject({
      retryable: true,
      retryAfterSeconds: 12,
    });
  });

  it("a 5xx is retryable; a dropped connection is retryable for a read receipt", async () => {
    fake.failNext({ status: 503 });
    expect(await failureOf(graph.sendMessage(creds, hello))).toMatchObject({
      retryable: true,
      retryAfterSeconds: 30,
    });
    fake.failNext({ network: true });
    expect(await failureOf(graph.markRead(creds, "wamid.IN"))).toMatchObject({
      retryable: true,
      retryAfterSeconds: 30,
    });
  });

  it("a send whose connection dropped after it left, or that timed out, is unknown and final: one POST", async () => {
    fake.failNext({ network: true, pathEndsWith: "/messages" });
    expect(await failureOf(graph.sendMessage(creds, hello))).toMatchObject({
      retryable: false,
      code: "ERR_WAPP_SEND_UNKNOWN",
    });
    const impatient = createGraphClient({ baseUrl: fake.url, timeoutMs: 200 });
    fake.failNext({ delayMs: 1000, pathEndsWith: "/messages" });
    expect(await failureOf(impatient.sendMessage(creds, hello))).toMatchObject({
      retryable: false,
      code: "ERR_WAPP_SEND_UNKNOWN",
    });
    expect(fake.requests.filter((r) => r.path.endsWith("/messages"))).toHaveLength(2);
  });

  it("an unreachable Graph API (connection refused: nothing left) is retryable, a send too", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const nowhere = createGraphClient({ baseUrl: `http://127.0.0.1:${port}/v21.0` });
    expect(await failureOf(nowhere.sendMessage(creds, hello))).toMatchObject({ retryable: true });
  });

  it("190 (token expired or invalid) is final, ERR_WAPP_TOKEN_EXPIRED, and the token is not in the message", async () => {
    const err = await failureOf(graph.sendMessage({ ...creds, accessToken: "expired-token" }, hello));
    expect(err).toMatchObject({ retryable: false, code: "ERR_WAPP_TOKEN_EXPIRED" });
    expect(err.message).not.toContain("expired-token");
  });

  it("other 4xx (131026, 100) are final ERR_SENDING_WAPP_MSG with Meta's message", async () => {
    fake.failNext({ code: 131026 });
    expect(await failureOf(graph.sendMessage(creds, hello))).toMatchObject({
      retryable: false,
      code: "ERR_SENDING_WAPP_MSG",
      message: "(#131026) Message undeliverable: Unable to deliver message.",
    });
    const err = await failureOf(
      graph.sendMessage(creds, { to: "", content: { type: "text", text: { body: "" } } }),
    );
    expect(err).toMatchObject({
      retryable: false,
      code: "ERR_SENDING_WAPP_MSG",
      message: "(#100) Invalid parameter",
    });
  });

  it("reads Retry-After as seconds or as a date", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:01:00 GMT", now)).toBe(60);
    expect(parseRetryAfter("soon", now)).toBe(30);
    expect(parseRetryAfter(null, now)).toBe(30);
  });
});

describe("graph client: media download", () => {
  it("goes media id → url → bytes, with the bearer token on both requests", async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const mediaId = fake.addMedia(bytes, "image/jpeg");
    const info = await graph.mediaInfo(fake.accessToken, mediaId);
    expect(info).toMatchObject({ id: mediaId, mime_type: "image/jpeg", file_size: String(bytes.length) });
    const downloaded = await graph.downloadMedia(fake.accessToken, info.url);
    expect(downloaded.equals(bytes)).toBe(true);
    expect(fake.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ["GET", `/${mediaId}`, `Bearer ${fake.accessToken}`],
      ["GET", `/download/${mediaId}`, `Bearer ${fake.accessToken}`],
    ]);
    expect((await graph.fetchMedia(fake.accessToken, mediaId)).equals(bytes)).toBe(true);
  });

  it("a download without the right token fails; an unknown media id is ERR_WAPP_DOWNLOAD_MEDIA", async () => {
    const mediaId = fake.addMedia(Buffer.from("x"), "image/png");
    const info = await graph.mediaInfo(fake.accessToken, mediaId);
    expect(await failureOf(graph.downloadMedia("wrong", info.url))).toMatchObject({
      retryable: false,
      code: "ERR_WAPP_TOKEN_EXPIRED",
    });
    expect(await failureOf(graph.mediaInfo(fake.accessToken, "404404"))).toMatchObject({
      retryable: false,
      code: "ERR_WAPP_DOWNLOAD_MEDIA",
    });
  });
});
