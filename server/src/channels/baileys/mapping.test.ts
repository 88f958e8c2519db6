import type { WAMessage } from "./lib.js";
import { describe, expect, it } from "vitest";
import type { ChannelEvent, InboundMessage } from "../provider.js";
import { AT, fixtures, ignored, subjectChanged, unreadable } from "./fixtures/messages.js";
import { mapUpsertedMessage, type MediaDownloader, UNREADABLE_TEXT } from "./mapping.js";

const BYTES = Buffer.from("fake media bytes");
const downloaded: string[] = [];
const fakeDownload: MediaDownloader = async (message: WAMessage) => {
  downloaded.push(message.key.id ?? "");
  return BYTES;
};

const customer = { number: "5511987654321", isGroup: false };

function inbound(msg: WAMessage): InboundMessage {
  const event = mapUpsertedMessage(msg, fakeDownload);
  if (event?.type !== "message") throw new Error(`expected a message, got ${JSON.stringify(event)}`);
  return event.message;
}

describe("mapUpsertedMessage: texts", () => {
  it("maps a plain text with the sender's push name", () => {
    expect(mapUpsertedMessage(fixtures.text, fakeDownload)).toStrictEqual<ChannelEvent>({
      type: "message",
      message: {
        id: "TEXT1",
        chat: customer,
        fromMe: false,
        timestamp: AT,
        kind: "text",
        body: "Olá, preciso de ajuda",
        pushName: "Maria",
      },
    });
  });

  it("maps a reply: the quoted message's id is contextInfo.stanzaId", () => {
    expect(inbound(fixtures.quotedReply)).toStrictEqual<InboundMessage>({
      id: "REPLY1",
      chat: customer,
      fromMe: false,
      timestamp: AT,
      kind: "text",
      body: "Sim, esse pedido",
      pushName: "Maria",
      quotedId: "ORIGINAL1",
    });
  });

  it("flags forwarded messages", () => {
    expect(inbound(fixtures.forwarded)).toMatchObject({ kind: "text", body: "Promoção!", isForwarded: true });
  });

  it("keeps fromMe for messages typed on the company's phone, without the company's push name", () => {
    expect(inbound(fixtures.fromMe)).toStrictEqual<InboundMessage>({
      id: "MINE1",
      chat: customer,
      fromMe: true,
      timestamp: AT,
      kind: "text",
      body: "Respondi pelo celular",
    });
  });
});

describe("mapUpsertedMessage: media", () => {
  type Shown = Pick<InboundMessage, "kind" | "body">;
  const cases: [string, WAMessage, Shown, { mimetype: string; filename?: string }][] = [
    ["image", fixtures.image, { kind: "image", body: "Nota fiscal" }, { mimetype: "image/jpeg" }],
    ["video", fixtures.video, { kind: "video", body: "" }, { mimetype: "video/mp4" }],
    ["voice note", fixtures.voiceNote, { kind: "audio", body: "" }, { mimetype: "audio/ogg; codecs=opus" }],
    [
      "document with caption",
      fixtures.document,
      { kind: "document", body: "Segue o boleto" },
      { mimetype: "application/pdf", filename: "boleto.pdf" },
    ],
    ["sticker", fixtures.sticker, { kind: "sticker", body: "" }, { mimetype: "image/webp" }],
    [
      "view-once image in a disappearing chat",
      fixtures.ephemeralViewOnce,
      { kind: "image", body: "" },
      { mimetype: "image/jpeg" },
    ],
  ];

  it.each(cases)("maps %s, its download fetching the message's bytes", async (_, msg, shown, media) => {
    const message = inbound(msg);
    expect(message).toStrictEqual<InboundMessage>({
      id: msg.key.id ?? "",
      chat: customer,
      fromMe: false,
      timestamp: AT,
      pushName: "Maria",
      ...shown,
      media: {
        ...media,
        // The announced size and what the media job downloads by later (key and CDN path).
        size: 1024,
        ref: expect.objectContaining({
          id: msg.key.id,
          mediaKey: Buffer.alloc(32, 7).toString("base64"),
          directPath: expect.stringMatching(/^\/v\/t62/) as string,
        }) as Record<string, string>,
        download: expect.any(Function) as () => Promise<Buffer>,
      },
    });
    await expect(message.media?.download()).resolves.toBe(BYTES);
    expect(downloaded.at(-1)).toBe(msg.key.id);
  });
});

describe("mapUpsertedMessage: albums and animated stickers", () => {
  it("shows an album's picture as a picture (its header shows nothing: see ignored)", async () => {
    const message = inbound(fixtures.albumPicture);
    expect(message).toMatchObject({ id: "ALB1-1", kind: "image", body: "Frente" });
    expect(message.media).toMatchObject({
      mimetype: "image/jpeg",
      ref: expect.objectContaining({ field: "imageMessage", id: "ALB1-1" }) as Record<string, string>,
    });
    await expect(message.media?.download()).resolves.toBe(BYTES);
  });

  it("shows a lottie sticker as a sticker: its still picture when it has one, else its file", async () => {
    const still = inbound(fixtures.lottieSticker);
    expect(still).toMatchObject({ id: "LOT1", kind: "sticker", body: "" });
    expect(still.media).toStrictEqual({ mimetype: "image/png", download: expect.any(Function) });
    await expect(still.media?.download()).resolves.toStrictEqual(Buffer.from("png still"));

    const bare = inbound(fixtures.lottieBare);
    expect(bare).toMatchObject({ id: "LOT2", kind: "sticker" });
    expect(bare.media).toMatchObject({
      mimetype: "application/was",
      ref: expect.objectContaining({ field: "stickerMessage", id: "LOT2" }) as Record<string, string>,
    });
  });
});

describe("mapUpsertedMessage: location, contacts, reactions", () => {
  it("renders a location as a Google Maps link plus its name", () => {
    expect(inbound(fixtures.location)).toStrictEqual<InboundMessage>({
      id: "LOC1",
      chat: customer,
      fromMe: false,
      timestamp: AT,
      pushName: "Maria",
      kind: "location",
      body: "https://maps.google.com/maps?q=-23.5613,-46.6565\nAvenida Paulista",
      location: { latitude: -23.5613, longitude: -46.6565, name: "Avenida Paulista" },
    });
  });

  it("maps a shared contact: body is the display name, the vcard kept", () => {
    const message = inbound(fixtures.contact);
    expect(message).toMatchObject({ kind: "contact", body: "João Silva" });
    expect(message.vcard).toContain("waid=5511912345678");
  });

  it("maps several shared contacts: names joined, vcards one after the other", () => {
    expect(inbound(fixtures.contacts)).toMatchObject({
      kind: "contact",
      body: "Ana, Bia",
      vcard: "BEGIN:VCARD\nFN:Ana\nEND:VCARD\nBEGIN:VCARD\nFN:Bia\nEND:VCARD",
    });
  });

  it("maps a reaction to the message reacted to", () => {
    expect(inbound(fixtures.reaction)).toStrictEqual<InboundMessage>({
      id: "REACT1",
      chat: customer,
      fromMe: false,
      timestamp: AT,
      pushName: "Maria",
      kind: "reaction",
      body: "👍",
      reaction: { targetId: "OUR_MSG_1", emoji: "👍" },
    });
  });
});

describe("mapUpsertedMessage: edits and revokes", () => {
  it("maps a revoke to the revoked message's id", () => {
    expect(mapUpsertedMessage(fixtures.revoke, fakeDownload)).toStrictEqual({ type: "revoke", id: "TEXT1" });
  });

  it("maps an edit (editedMessage wrapping a MESSAGE_EDIT) to the new text", () => {
    expect(mapUpsertedMessage(fixtures.edit, fakeDownload)).toStrictEqual({
      type: "edit",
      id: "TEXT1",
      body: "Olá, preciso de ajuda urgente",
    });
  });
});

describe("mapUpsertedMessage: addresses", () => {
  it("maps a group message: chat is the group, participant resolved from LID to phone number", () => {
    expect(inbound(fixtures.group)).toStrictEqual<InboundMessage>({
      id: "GRP1",
      chat: { number: "120363025246125486", isGroup: true },
      participant: { number: "5521998877665", isGroup: false, lid: "98765432109876", name: "Carlos" },
      fromMe: false,
      timestamp: AT,
      pushName: "Carlos",
      kind: "text",
      body: "Bom dia, grupo",
    });
  });

  it("maps a LID chat to the phone number Baileys gives as remoteJidAlt", () => {
    expect(inbound(fixtures.lidChat).chat).toStrictEqual({
      number: "5511955554444",
      isGroup: false,
      lid: "123456789012345",
    });
  });

  it("keeps only the LID when no phone number is known", () => {
    expect(inbound(fixtures.lidOnly).chat).toStrictEqual({
      number: "",
      isGroup: false,
      lid: "123456789012345",
    });
  });

  it("adds the ninth digit to an old Brazilian mobile jid", () => {
    expect(inbound(fixtures.brazilianEightDigits).chat).toStrictEqual({
      number: "5511987654321",
      isGroup: false,
    });
  });
});

describe("mapUpsertedMessage: nothing to show", () => {
  it.each(Object.entries(ignored))("ignores %s", (_, msg) => {
    expect(mapUpsertedMessage(msg, fakeDownload)).toBeNull();
  });

  it("ignores a group's notice (a stub of another kind, no content)", () => {
    expect(
      mapUpsertedMessage(subjectChanged("120363025246125486@g.us", "VIP", "S1"), fakeDownload),
    ).toBeNull();
  });
});

describe("mapUpsertedMessage: what this device could not read", () => {
  it.each(Object.entries(unreadable))("%s is a placeholder the agent sees, under its own id", (_, msg) => {
    const message = inbound(msg);
    expect(message).toMatchObject({
      id: msg.key.id,
      kind: "unreadable",
      body: UNREADABLE_TEXT,
      fromMe: false,
    });
    expect(message.media).toBeUndefined();
  });

  it("keeps the sender: the customer's push name, or in a group its participant", () => {
    expect(inbound(unreadable.undecrypted)).toMatchObject({ chat: customer, pushName: "Maria" });
    expect(inbound(unreadable.groupPartly)).toMatchObject({
      chat: { number: "120363025246125486", isGroup: true },
      participant: { number: "5521998877665", lid: "98765432109876", name: "Joana" },
    });
  });
});
