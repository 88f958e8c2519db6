import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeGraph, startFakeGraph } from "../../test/fakes/graph.js";
import type { AuthStore, ChannelEvent, ChannelSession, ConnectionInfo } from "../provider.js";
import { ChannelError } from "../provider.js";
import { waitFor } from "../../test/harness.js";
import { cloudProvider } from "./provider.js";

let fake: FakeGraph;
let session: ChannelSession;
const emitted: ChannelEvent[] = [];
const sink = { emit: async (event: ChannelEvent) => void emitted.push(event) };
/** The Cloud provider keeps no session state; a store that holds nothing stands in for the real one. */
const noStore: AuthStore = {
  get: async () => ({}),
  set: async () => undefined,
  clear: async () => undefined,
};
const customer = { number: "5511987654321", isGroup: false };

function connection(config: Record<string, string>): ConnectionInfo {
  return { id: 7, companyId: 3, name: "Cloud", number: "5511912345678", config };
}

beforeAll(async () => {
  fake = await startFakeGraph();
  fake.phoneNumbers.set("PNID", { display_phone_number: "+55 11 91234-5678", verified_name: "Atende" });
  const provider = cloudProvider({ graphUrl: fake.url });
  session = await provider.start(
    connection({ phoneNumberId: "PNID", accessToken: fake.accessToken, verifyToken: "v", appSecret: "s" }),
    sink,
    noStore,
  );
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

describe("cloudProvider.start", () => {
  const start = async (config: Record<string, string>, opts: { recheckMs?: number } = {}) => {
    const events: ChannelEvent[] = [];
    const started = await cloudProvider({ graphUrl: fake.url, ...opts }).start(
      connection(config),
      { emit: async (e) => void events.push(e) },
      noStore,
    );
    return { events, session: started };
  };

  it("reports CONNECTED, with the number Graph gives, once the token reached the phone number", async () => {
    expect(emitted).toEqual([{ type: "connection", status: "CONNECTED", number: "5511912345678" }]);
    const { events, session: checked } = await start({
      phoneNumberId: "PNID",
      accessToken: fake.accessToken,
    });
    expect(events).toEqual([{ type: "connection", status: "CONNECTED", number: "5511912345678" }]);
    expect(fake.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ["GET", "/PNID", `Bearer ${fake.accessToken}`],
    ]);
    await checked.stop();
  });

  it("reports DISCONNECTED, never CONNECTED, when Graph refuses the token or does not know the number", async () => {
    const refused = await start({ phoneNumberId: "PNID", accessToken: "revoked-token" });
    expect(refused.events).toEqual([
      { type: "connection", status: "DISCONNECTED", reason: "ERR_WAPP_TOKEN_EXPIRED" },
    ]);
    const unknown = await start({ phoneNumberId: "OTHER", accessToken: fake.accessToken });
    expect(unknown.events).toEqual([{ type: "connection", status: "DISCONNECTED" }]);
  });

  it("stays OPENING while Graph cannot be reached, and says CONNECTED when a later check gets through", async () => {
    fake.failNext({ network: true, pathEndsWith: "/PNID" });
    const { events, session: later } = await start(
      { phoneNumberId: "PNID", accessToken: fake.accessToken },
      { recheckMs: 50 },
    );
    expect(events).toEqual([{ type: "connection", status: "OPENING" }]);
    await waitFor(() => events.length === 2);
    expect(events[1]).toEqual({ type: "connection", status: "CONNECTED", number: "5511912345678" });
    await later.stop();
  });

  it("reports DISCONNECTED without credentials, and its sends fail as not initialized", async () => {
    const events: ChannelEvent[] = [];
    const bare = await cloudProvider({ graphUrl: fake.url }).start(
      connection({ phoneNumberId: "PNID" }),
      { emit: async (e) => void events.push(e) },
      noStore,
    );
    expect(events).toEqual([{ type: "connection", status: "DISCONNECTED" }]);
    await expect(bare.send({ to: customer, body: "hi" })).rejects.toMatchObject({
      retryable: false,
      code: "ERR_WAPP_NOT_INITIALIZED",
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("cloud session: sending", () => {
  it("sends text, with a link preview when it has a link, and replies through context", async () => {
    const plain = await session.send({ to: customer, body: "Hi there", quotedId: "wamid.Q" });
    await session.send({ to: customer, body: "See https://example.com" });
    const [first, second] = fake.requests.map((r) => r.json);
    expect(first).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "5511987654321",
      context: { message_id: "wamid.Q" },
      type: "text",
      text: { body: "Hi there", preview_url: false },
    });
    expect(second).toMatchObject({
      type: "text",
      text: { body: "See https://example.com", preview_url: true },
    });
    expect(plain.id).toBe(fake.requests[0]!.answeredId);
  });

  it("uploads media, then sends it by id with its caption", async () => {
    const data = Buffer.from("\x89PNG fake");
    const sent = await session.send({
      to: customer,
      body: "The receipt",
      media: { kind: "image", mimetype: "image/png", filename: "r.png", data },
    });
    const [upload, message] = fake.requests;
    expect(upload!.path).toBe("/PNID/media");
    expect(fake.media.get(upload!.answeredId!)?.data.equals(data)).toBe(true);
    expect(message!.json).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "5511987654321",
      type: "image",
      image: { id: upload!.answeredId, caption: "The receipt" },
    });
    expect(sent.id).toBe(message!.answeredId);
  });

  it("sends a document with its file name, and a voice note as audio with voice: true, without caption", async () => {
    await session.send({
      to: customer,
      body: "",
      media: {
        kind: "document",
        mimetype: "application/pdf",
        filename: "invoice.pdf",
        data: Buffer.from("%PDF"),
      },
    });
    await session.send({
      to: customer,
      body: "voice.ogg",
      quotedId: "wamid.Q",
      media: {
        kind: "audio",
        mimetype: "audio/ogg; codecs=opus",
        filename: "voice.ogg",
        data: Buffer.from("OggS"),
        voiceNote: true,
      },
    });
    const sends = fake.requests.filter((r) => r.path === "/PNID/messages");
    const uploads = fake.requests.filter((r) => r.path === "/PNID/media");
    expect(sends[0]!.json).toMatchObject({
      type: "document",
      document: { id: uploads[0]!.answeredId, filename: "invoice.pdf" },
    });
    expect(sends[1]!.json).toMatchObject({
      type: "audio",
      audio: { id: uploads[1]!.answeredId, voice: true },
      context: { message_id: "wamid.Q" },
    });
    expect(sends[1]!.json).not.toHaveProperty("audio.caption");
    // A plain audio file (an MP3, not a recording) stays a file.
    await session.send({
      to: customer,
      body: "",
      media: { kind: "audio", mimetype: "audio/mpeg", filename: "song.mp3", data: Buffer.from("ID3") },
    });
    const song = fake.requests.filter((r) => r.path === "/PNID/messages")[2]!.json;
    expect(song).toMatchObject({ type: "audio" });
    expect(song).not.toHaveProperty("audio.voice");
  });

  it("refuses what the Cloud API does not take before uploading anything: a WebM voice note, an Ogg without Opus, a GIF, an image over 5 MB", async () => {
    const refused: [string, Parameters<ChannelSession["send"]>[0]["media"], string][] = [
      [
        "webm",
        {
          kind: "audio",
          mimetype: "audio/webm",
          filename: "a.webm",
          data: Buffer.from("x"),
          voiceNote: true,
        },
        "ERR_CLOUD_MEDIA_TYPE",
      ],
      [
        "vorbis",
        { kind: "audio", mimetype: "audio/ogg", filename: "a.ogg", data: Buffer.from("x") },
        "ERR_CLOUD_MEDIA_TYPE",
      ],
      [
        "gif",
        { kind: "image", mimetype: "image/gif", filename: "a.gif", data: Buffer.from("x") },
        "ERR_CLOUD_MEDIA_TYPE",
      ],
      [
        "big",
        { kind: "image", mimetype: "image/png", filename: "a.png", data: Buffer.alloc(5 * 1024 * 1024 + 1) },
        "ERR_CLOUD_MEDIA_TOO_LARGE",
      ],
    ];
    for (const [what, media, code] of refused) {
      await expect(session.send({ to: customer, body: "", media }), what).rejects.toMatchObject({
        retryable: false,
        code,
      });
    }
    expect(fake.requests.filter((r) => r.path === "/PNID/media")).toHaveLength(0);
  });

  it("sends our message id as biz_opaque_callback_data, for the status webhook to name it by", async () => {
    await session.send({ id: "3EB0ABCDEF", to: customer, body: "tracked" });
    expect(fake.requests[0]!.json).toMatchObject({
      to: "5511987654321",
      biz_opaque_callback_data: "3EB0ABCDEF",
    });
  });

  it("answers a customer without a number by the business-scoped user id, as `recipient`", async () => {
    const hidden = { number: "", isGroup: false, lid: "BR.1502576394655843" };
    const sent = await session.send({ to: hidden, body: "Olá" });
    await session.react(hidden, "wamid.IN", false, "👍");
    const [text, reaction] = fake.requests.map((r) => r.json as Record<string, unknown>);
    expect(text).toMatchObject({ recipient: "BR.1502576394655843", type: "text" });
    expect(text).not.toHaveProperty("to");
    expect(reaction).toMatchObject({ recipient: "BR.1502576394655843", type: "reaction" });
    expect(sent.id).toBe(fake.requests[0]!.answeredId);
    await expect(session.send({ to: { number: "", isGroup: false }, body: "?" })).rejects.toMatchObject({
      retryable: false,
    });
    expect(fake.requests).toHaveLength(2);
  });

  it("sends a template with its language and variables as text parameters", async () => {
    await session.send({
      to: customer,
      body: "Olá Ana, seu pedido 123 saiu.",
      template: { name: "order_update", language: "pt_BR", header: ["Pedido"], body: ["Ana", "123"] },
    });
    expect(fake.requests[0]!.json).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "5511987654321",
      type: "template",
      template: {
        name: "order_update",
        language: { code: "pt_BR" },
        components: [
          { type: "header", parameters: [{ type: "text", text: "Pedido" }] },
          {
            type: "body",
            parameters: [
              { type: "text", text: "Ana" },
              { type: "text", text: "123" },
            ],
          },
        ],
      },
    });
  });

  it("a send Graph answers after the timeout went out once and fails as unknown, never retryable", async () => {
    const impatient = await cloudProvider({ graphUrl: fake.url, timeoutMs: 200 }).start(
      connection({ phoneNumberId: "PNID", accessToken: fake.accessToken }),
      sink,
      noStore,
    );
    fake.requests.length = 0;
    fake.failNext({ delayMs: 1000, pathEndsWith: "/messages" });
    await expect(impatient.send({ id: "3EB0SLOW", to: customer, body: "slow" })).rejects.toMatchObject({
      retryable: false,
      code: "ERR_WAPP_SEND_UNKNOWN",
    });
    // The fake still handled it: the message went out, and one POST is all Graph saw.
    await waitFor(() => fake.requests.some((r) => r.answeredId));
    expect(fake.requests.filter((r) => r.method === "POST" && r.path === "/PNID/messages")).toHaveLength(1);
    await impatient.stop();
  });

  it("a send whose connection was refused before it left is retryable", async () => {
    // A port nobody listens on: the connection is refused before any byte of the request leaves.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const nowhere = await cloudProvider({
      graphUrl: `http://127.0.0.1:${port}/v21.0`,
      recheckMs: 60_000,
    }).start(
      connection({ phoneNumberId: "PNID", accessToken: fake.accessToken }),
      { emit: async () => undefined },
      noStore,
    );
    await expect(nowhere.send({ id: "3EB0X", to: customer, body: "x" })).rejects.toMatchObject({
      retryable: true,
      code: "ERR_SENDING_WAPP_MSG",
    });
    await nowhere.stop();
  });

  it("passes the 24-hour window error through as a ChannelError", async () => {
    fake.failNext({ code: 131047 });
    await expect(session.send({ to: customer, body: "late" })).rejects.toMatchObject({
      retryable: false,
      code: "ERR_WAPP_24H_WINDOW",
    });
  });

  it("reacts, and removes a reaction with an empty emoji", async () => {
    await session.react(customer, "wamid.IN", false, "❤️");
    await session.react(customer, "wamid.IN", false, "");
    expect(fake.requests.map((r) => r.json)).toEqual([
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: "5511987654321",
        type: "reaction",
        reaction: { message_id: "wamid.IN", emoji: "❤️" },
      },
      expect.objectContaining({ reaction: { message_id: "wamid.IN", emoji: "" } }),
    ]);
  });

  it("marks each message read with its own call", async () => {
    await session.markRead(customer, ["wamid.1", "wamid.2"]);
    expect(fake.requests.map((r) => r.json)).toEqual([
      { messaging_product: "whatsapp", status: "read", message_id: "wamid.1" },
      { messaging_product: "whatsapp", status: "read", message_id: "wamid.2" },
    ]);
  });
});

describe("cloud session: what the Cloud API cannot do", () => {
  it("declining a call does nothing: the Cloud API has no such call", async () => {
    await expect(session.rejectCall(customer, "CALL1")).resolves.toBeUndefined();
    expect(fake.requests).toHaveLength(0);
  });

  it("refuses edit and delete for everyone, finally", async () => {
    const edit = session.edit(customer, "wamid.OUT", "new text");
    await expect(edit).rejects.toBeInstanceOf(ChannelError);
    await expect(edit).rejects.toMatchObject({ retryable: false, code: "ERR_SENDING_WAPP_MSG" });
    await expect(session.deleteForEveryone(customer, "wamid.OUT", true)).rejects.toMatchObject({
      retryable: false,
      code: "ERR_DELETE_WAPP_MSG",
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("answers numbers as given (normalized), no profile picture, and stops without a call", async () => {
    expect(await session.checkNumber("+55 (11) 8765-4321")).toEqual({
      number: "5511987654321",
      isGroup: false,
    });
    expect(await session.checkNumber("abc")).toBeNull();
    expect(await session.profilePicture(customer)).toBeNull();
    await session.stop();
    await session.logout();
    expect(fake.requests).toHaveLength(0);
  });
});
