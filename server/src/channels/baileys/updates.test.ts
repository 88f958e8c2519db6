import { proto } from "./lib.js";
import { describe, expect, it } from "vitest";
import { AT, calls, CUSTOMER_JID } from "./fixtures/messages.js";
import { mapCall, mapContact, mapGroupReceipt, mapPresence, mapStatusUpdate } from "./updates.js";

const Status = proto.WebMessageInfo.Status;
const ours = { remoteJid: CUSTOMER_JID, fromMe: true, id: "OUT1" };

describe("acks", () => {
  it.each([
    [Status.PENDING, 1],
    [Status.SERVER_ACK, 2],
    [Status.DELIVERY_ACK, 3],
    [Status.READ, 4],
    [Status.PLAYED, 5],
  ])("maps status %i of a message we sent to ack %i", (status, ack) => {
    expect(mapStatusUpdate({ key: ours, update: { status } })).toStrictEqual({
      type: "ack",
      id: "OUT1",
      ack,
    });
  });

  it("maps ERROR to ack 0 with WhatsApp's reason", () => {
    expect(
      mapStatusUpdate({ key: ours, update: { status: Status.ERROR, messageStubParameters: ["479"] } }),
    ).toStrictEqual({
      type: "ack",
      id: "OUT1",
      ack: 0,
      error: "479",
    });
  });

  it("ignores statuses of received messages and updates without a status", () => {
    expect(mapStatusUpdate({ key: { ...ours, fromMe: false }, update: { status: Status.READ } })).toBeNull();
    expect(mapStatusUpdate({ key: ours, update: { starred: true } })).toBeNull();
  });

  it("maps group receipts: read beats delivered", () => {
    const key = { remoteJid: "120363025246125486@g.us", fromMe: true, id: "G1" };
    expect(mapGroupReceipt({ key, receipt: { userJid: CUSTOMER_JID, receiptTimestamp: 1 } })).toStrictEqual({
      type: "ack",
      id: "G1",
      ack: 3,
    });
    expect(mapGroupReceipt({ key, receipt: { userJid: CUSTOMER_JID, readTimestamp: 2 } })).toMatchObject({
      ack: 4,
    });
  });
});

describe("presence", () => {
  it.each([
    ["composing", "composing"],
    ["recording", "recording"],
    ["available", "available"],
    ["paused", "available"],
  ] as const)("maps %s to %s", (lastKnownPresence, presence) => {
    expect(
      mapPresence({ id: CUSTOMER_JID, presences: { [CUSTOMER_JID]: { lastKnownPresence } } }),
    ).toStrictEqual({
      type: "presence",
      chat: { number: "5511987654321", isGroup: false },
      presence,
    });
  });

  it("ignores unavailable", () => {
    expect(
      mapPresence({ id: CUSTOMER_JID, presences: { [CUSTOMER_JID]: { lastKnownPresence: "unavailable" } } }),
    ).toBeNull();
  });
});

describe("contacts", () => {
  it("maps a contact with LID id and phone number, preferring the saved name", () => {
    expect(
      mapContact({
        id: "123456789012345@lid",
        phoneNumber: "551187654321@s.whatsapp.net",
        name: "Maria Loja",
        notify: "Mari",
      }),
    ).toStrictEqual({
      type: "contact",
      address: { number: "5511987654321", isGroup: false, lid: "123456789012345" },
      name: "Maria Loja",
    });
  });

  it("keeps a picture url, not the 'changed' marker", () => {
    expect(mapContact({ id: CUSTOMER_JID, imgUrl: "https://pps.whatsapp.net/v/x.jpg" })).toMatchObject({
      profilePicUrl: "https://pps.whatsapp.net/v/x.jpg",
    });
    expect(mapContact({ id: CUSTOMER_JID, imgUrl: "changed" })).toBeNull();
  });
});

describe("calls", () => {
  it("maps an offer: caller by phone number, video flag, time and id", () => {
    expect(mapCall(calls.videoOffer!)).toStrictEqual({
      type: "call",
      from: { number: "5511955554444", isGroup: false, lid: "123456789012345" },
      isVideo: true,
      at: AT,
      callId: "CALL1",
    });
  });

  it("ignores the later states of a call", () => {
    expect(mapCall(calls.ringing!)).toBeNull();
  });
});
