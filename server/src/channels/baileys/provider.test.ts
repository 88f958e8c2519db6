import { beforeEach, describe, expect, it, vi } from "vitest";
import { ChannelError, type ChannelSession } from "../provider.js";
import { boom, type FakeSocket } from "./fixtures/fakeSocket.js";
import { closeWith, settle, startProvider } from "./fixtures/harness.js";
import { fixtures } from "./fixtures/messages.js";
import { waitFor } from "../../test/harness.js";

describe("baileysProvider: inbound", () => {
  it("hands upserted messages and acks to the sink in order, going on when the sink fails one", async () => {
    const { current, connect, events, sink } = await startProvider();
    await connect();
    sink.emit.mockRejectedValueOnce(new Error("database down"));
    current().fire("messages.upsert", { type: "notify", messages: [fixtures.image, fixtures.text] });
    current().fire("messages.upsert", { type: "append", messages: [fixtures.quotedReply] });
    current().fire("messages.update", [
      { key: { remoteJid: "x@s.whatsapp.net", fromMe: true, id: "SENT1" }, update: { status: 3 } },
    ]);
    await settle();
    const handed = sink.emit.mock.calls.flatMap(([e]) =>
      e.type === "message" ? [e.message.id] : e.type === "ack" ? [`ack:${e.id}:${e.ack}`] : [],
    );
    // IMG1 was handed first and failed; the ones after it still went through, in order.
    expect(handed).toStrictEqual(["IMG1", "TEXT1", "REPLY1", "ack:SENT1:3"]);
    expect(events.filter((e) => e.type === "message")).toHaveLength(2);
  });

  it("holds an event while the database is away and hands it again, in order, until it is committed", async () => {
    const { current, connect, events, sink } = await startProvider();
    await connect();
    const away = Object.assign(new Error("Failed query: insert"), {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    });
    sink.emit.mockRejectedValueOnce(away).mockRejectedValueOnce(away);
    current().fire("messages.upsert", { type: "notify", messages: [fixtures.image, fixtures.text] });
    await waitFor(() => events.filter((e) => e.type === "message").length === 2);
    const handed = sink.emit.mock.calls.flatMap(([e]) => (e.type === "message" ? [e.message.id] : []));
    // IMG1 was refused twice, then committed; TEXT1 waited behind it.
    expect(handed).toStrictEqual(["IMG1", "IMG1", "IMG1", "TEXT1"]);
    expect(events.flatMap((e) => (e.type === "message" ? [e.message.id] : []))).toStrictEqual([
      "IMG1",
      "TEXT1",
    ]);
  });

  it("reports incoming calls without rejecting them", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    current().fire("call", [
      {
        chatId: "5511987654321@s.whatsapp.net",
        from: "5511987654321@s.whatsapp.net",
        id: "C1",
        date: new Date(0),
        status: "offer",
        offline: false,
      },
    ]);
    await settle();
    expect(events.at(-1)).toStrictEqual({
      type: "call",
      from: { number: "5511987654321", isGroup: false },
      isVideo: false,
      at: new Date(0),
      callId: "C1",
    });
    expect(current().sent).toHaveLength(0);
  });

  it("downloads media through the injected downloader", async () => {
    const downloadMedia = vi.fn(async () => Buffer.from("jpeg"));
    const { current, connect, events } = await startProvider({ downloadMedia });
    await connect();
    current().fire("messages.upsert", { type: "notify", messages: [fixtures.image] });
    await settle();
    const event = events.at(-1);
    expect(event?.type === "message" && (await event.message.media?.download())).toStrictEqual(
      Buffer.from("jpeg"),
    );
  });
});

describe("baileysProvider: session", () => {
  let session: ChannelSession;
  let socket: FakeSocket;
  beforeEach(async () => {
    const started = await startProvider();
    await started.connect();
    session = started.session;
    socket = started.current();
    socket.knownNumbers = [{ jid: "551187654321@s.whatsapp.net", exists: true }];
  });

  const to = { number: "5511987654321", isGroup: false };
  const jid = "551187654321@s.whatsapp.net"; // the account predates the ninth digit

  it("sends a text to the jid WhatsApp knows and answers the message id", async () => {
    expect(await session.send({ to, body: "Olá!" })).toStrictEqual({ id: "SENT1" });
    expect(socket.sent).toStrictEqual([{ jid, content: { text: "Olá!" }, options: {} }]);
  });

  it("quotes the message replied to", async () => {
    await session.send({
      to,
      body: "Sim",
      quotedId: "Q1",
      quoted: { id: "Q1", fromMe: false, body: "Pode ser?" },
    });
    expect(socket.sent[0]?.options).toStrictEqual({
      quoted: { key: { remoteJid: jid, id: "Q1", fromMe: false }, message: { conversation: "Pode ser?" } },
    });
  });

  it("sends media: image with caption, voice note, document with its name", async () => {
    const data = Buffer.from("bytes");
    await session.send({
      to,
      body: "Foto",
      media: { kind: "image", mimetype: "image/png", filename: "a.png", data },
    });
    await session.send({
      to,
      body: "",
      media: { kind: "audio", mimetype: "audio/ogg", filename: "rec.ogg", data, voiceNote: true },
    });
    // A browser's WebM recording is not Ogg/Opus: it goes as a plain audio, never labelled Ogg.
    await session.send({
      to,
      body: "",
      media: { kind: "audio", mimetype: "audio/webm", filename: "rec.webm", data, voiceNote: true },
    });
    await session.send({
      to,
      body: "",
      media: { kind: "document", mimetype: "application/pdf", filename: "b.pdf", data },
    });
    expect(socket.sent.map((s) => s.content)).toStrictEqual([
      { image: data, caption: "Foto", mimetype: "image/png" },
      { audio: data, ptt: true, mimetype: "audio/ogg; codecs=opus" },
      { audio: data, mimetype: "audio/webm" },
      { document: data, mimetype: "application/pdf", fileName: "b.pdf", caption: undefined },
    ]);
  });

  it("reacts, edits, deletes for everyone and marks as read", async () => {
    await session.react(to, "M1", false, "❤️");
    await session.edit(to, "M2", "corrigido");
    await session.deleteForEveryone(to, "M3", true);
    await session.markRead(to, ["M4", "M5"]);
    expect(socket.sent.map((s) => s.content)).toStrictEqual([
      { react: { text: "❤️", key: { remoteJid: jid, id: "M1", fromMe: false } } },
      { text: "corrigido", edit: { remoteJid: jid, id: "M2", fromMe: true } },
      { delete: { remoteJid: jid, id: "M3", fromMe: true } },
    ]);
    expect(socket.read).toStrictEqual([
      [
        { remoteJid: jid, id: "M4", fromMe: false },
        { remoteJid: jid, id: "M5", fromMe: false },
      ],
    ]);
  });

  it("declines a call from the caller's jid, or from their privacy id when that is all it knows", async () => {
    await session.rejectCall(to, "CALL1");
    await session.rejectCall({ number: "", isGroup: false, lid: "123456789012345" }, "CALL2");
    expect(socket.rejected).toStrictEqual([
      ["CALL1", jid],
      ["CALL2", "123456789012345@lid"],
    ]);
    expect(socket.sent).toHaveLength(0);
  });

  it("checks a number: the canonical address, with the ninth digit, or null", async () => {
    expect(await session.checkNumber("(11) 98765-4321")).toStrictEqual({
      number: "5511987654321",
      isGroup: false,
    });
    socket.knownNumbers = [];
    expect(await session.checkNumber("5511912345678")).toBeNull();
  });

  it("answers a profile picture url, or null when WhatsApp has none to show", async () => {
    expect(await session.profilePicture(to)).toBe("https://pps.whatsapp.net/v/pic.jpg");
    expect(await session.profilePicture({ number: "14155550123", isGroup: false })).toBeNull();
  });

  it("classifies send failures: refused for good, or worth retrying", async () => {
    socket.failNextSend = boom("bad-request", 400);
    await expect(session.send({ to, body: "x" })).rejects.toMatchObject({ retryable: false });
    socket.failNextSend = boom("Connection Closed", 428);
    await expect(session.send({ to, body: "x" })).rejects.toMatchObject({ retryable: true });
    socket.failNextSend = new Error("fetch failed");
    await expect(session.send({ to, body: "x" })).rejects.toMatchObject({ retryable: true });
  });
});

describe("baileysProvider: sending while not connected", () => {
  it("throws a retryable ChannelError before the socket opens and after it closes", async () => {
    const { session, current, connect } = await startProvider();
    const attempt = session.send({ to: { number: "14155550123", isGroup: false }, body: "x" });
    await expect(attempt).rejects.toBeInstanceOf(ChannelError);
    await expect(attempt).rejects.toMatchObject({ retryable: true, code: "ERR_WAPP_NOT_INITIALIZED" });

    await connect();
    closeWith(current(), 408);
    await expect(
      session.send({ to: { number: "14155550123", isGroup: false }, body: "x" }),
    ).rejects.toMatchObject({
      retryable: true,
    });
    await session.stop();
  });
});
