import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeGraph, startFakeGraph } from "../../test/fakes/graph.js";
import type { AuthStore, ChannelEvent, ChannelSession, ConnectionInfo } from "../provider.js";
import { ChannelError } from "../provider.js";
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
  it("reports CONNECTED with the number when phoneNumberId and accessToken are set", () => {
    expect(emitted).toEqual([{ type: "connection", status: "CONNECTED", number: "5511912345678" }]);
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

  it("sends a document with its file name, and a voice note as audio without caption", async () => {
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
      audio: { id: uploads[1]!.answeredId },
      context: { message_id: "wamid.Q" },
    });
    expect(sends[1]!.json).not.toHaveProperty("audio.caption");
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
