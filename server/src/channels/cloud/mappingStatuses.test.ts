import { describe, expect, it } from "vitest";
import { cloudWebhookPayload } from "../../test/fakes/graph.js";
import { type CloudEvent, mapCloudWebhook } from "./mapping.js";

/** Statuses, order, and what the mapping skips without throwing. */
const PHONE_NUMBER_ID = "106540352242922";
const CUSTOMER = "16505551234";
const AT = "1749416383";

const webhook = (value: Record<string, unknown>, phoneNumberId = PHONE_NUMBER_ID) =>
  cloudWebhookPayload(phoneNumberId, value);
const sheena = { contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: CUSTOMER }] };
const map = (body: unknown): CloudEvent[] => mapCloudWebhook(body, async () => Buffer.alloc(0));
const fromSheena = {
  chat: { number: CUSTOMER, isGroup: false },
  fromMe: false,
  pushName: "Sheena Nelson",
  timestamp: new Date(Number(AT) * 1000),
};

describe("mapCloudWebhook: statuses", () => {
  const status = (id: string, value: string, extra: Record<string, unknown> = {}) => ({
    id,
    status: value,
    timestamp: AT,
    recipient_id: CUSTOMER,
    ...extra,
  });

  it("maps sent, delivered, read to acks 2, 3, 4 and failed to its readable error, in order", () => {
    const failure = {
      code: 131047,
      title: "Re-engagement message",
      message: "Re-engagement message",
      error_data: {
        details:
          "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
      },
      href: "https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/",
    };
    const events = map(
      webhook({
        statuses: [
          status("wamid.A", "sent", { conversation: { id: "c1", origin: { type: "service" } } }),
          status("wamid.A", "delivered"),
          status("wamid.A", "read"),
          status("wamid.B", "failed", { errors: [failure] }),
          status("wamid.C", "failed"),
        ],
      }),
    );
    expect(events).toEqual([
      { phoneNumberId: PHONE_NUMBER_ID, event: { type: "ack", id: "wamid.A", ack: 2 } },
      { phoneNumberId: PHONE_NUMBER_ID, event: { type: "ack", id: "wamid.A", ack: 3 } },
      { phoneNumberId: PHONE_NUMBER_ID, event: { type: "ack", id: "wamid.A", ack: 4 } },
      {
        phoneNumberId: PHONE_NUMBER_ID,
        event: {
          type: "ack",
          id: "wamid.B",
          ack: 0,
          error:
            "ERR_WAPP_24H_WINDOW: 131047: Re-engagement message — Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
        },
      },
      { phoneNumberId: PHONE_NUMBER_ID, event: { type: "ack", id: "wamid.C", ack: 0, error: "failed" } },
    ]);
  });
});

describe("mapCloudWebhook: what it does not understand", () => {
  it("shows unsupported and unknown messages as placeholders; skips unknown statuses, other fields and malformed items, keeping the order", () => {
    const body = webhook({
      ...sheena,
      messages: [
        { from: CUSTOMER, timestamp: AT, id: "wamid.U", type: "unsupported", errors: [{ code: 131051 }] },
        { from: CUSTOMER, timestamp: AT, id: "wamid.1", type: "text", text: { body: "first" } },
        { from: CUSTOMER, id: "wamid.NO_TIMESTAMP", type: "text", text: { body: "?" } },
        { from: CUSTOMER, timestamp: AT, id: "wamid.NO_IMAGE", type: "image" },
        { from: CUSTOMER, timestamp: AT, id: "wamid.HOLO", type: "hologram", hologram: {} },
        "not a message",
        { from: CUSTOMER, timestamp: AT, id: "wamid.2", type: "text", text: { body: "second" } },
      ],
      statuses: [{ id: "wamid.X", status: "deleted" }, null, { id: "wamid.Y", status: "delivered" }],
    });
    body.entry.push({
      id: "102290129340398",
      changes: [{ field: "account_update", value: { event: "VERIFIED_ACCOUNT" } }],
    });
    const placeholder = (id: string, type: string) => ({
      type: "message",
      message: { id, ...fromSheena, kind: "text", body: `[mensagem não suportada: ${type}]` },
    });
    expect(map(body).map((e) => e.event)).toEqual([
      placeholder("wamid.U", "unsupported"),
      { type: "message", message: { id: "wamid.1", ...fromSheena, kind: "text", body: "first" } },
      placeholder("wamid.NO_IMAGE", "image"),
      placeholder("wamid.HOLO", "hologram"),
      { type: "message", message: { id: "wamid.2", ...fromSheena, kind: "text", body: "second" } },
      { type: "ack", id: "wamid.Y", ack: 3 },
    ]);
  });

  it("never throws on payloads that are not webhooks", () => {
    for (const body of [
      null,
      undefined,
      "text",
      42,
      [],
      {},
      { entry: "x" },
      { entry: [null, { changes: 1 }] },
    ]) {
      expect(map(body)).toEqual([]);
    }
  });

  it("keeps events of several entries in payload order, each with its phone number id", () => {
    const first = webhook({ statuses: [{ id: "wamid.S", status: "read", timestamp: AT }] });
    const second = webhook(
      {
        ...sheena,
        messages: [{ from: CUSTOMER, timestamp: AT, id: "wamid.M", type: "text", text: { body: "hi" } }],
      },
      "999",
    );
    const events = map({ ...first, entry: [...first.entry, ...second.entry] });
    expect(events.map((e) => [e.phoneNumberId, e.event.type])).toEqual([
      [PHONE_NUMBER_ID, "ack"],
      ["999", "message"],
    ]);
  });
});
