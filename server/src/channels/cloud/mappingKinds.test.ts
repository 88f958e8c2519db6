import { describe, expect, it } from "vitest";
import { cloudWebhookPayload } from "../../test/fakes/graph.js";
import { type CloudEvent, mapCloudWebhook } from "./mapping.js";

/**
 * The message kinds nothing may drop in silence, and customers known by their business-scoped user
 * id. Payloads follow Meta's webhook references (messages: order, system, interactive nfm_reply,
 * request_welcome, unsupported, referral; the BSUID fields user_id / from_user_id).
 */
const PHONE_NUMBER_ID = "106540352242922";
const CUSTOMER = "16505551234";
const AT = "1749416383";
const sheena = { contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: CUSTOMER }] };
const map = (value: Record<string, unknown>): CloudEvent[] =>
  mapCloudWebhook(cloudWebhookPayload(PHONE_NUMBER_ID, value), async () => Buffer.alloc(0));
const one = (message: Record<string, unknown>, contacts: unknown = sheena.contacts) => {
  const events = map({ contacts, messages: [{ from: CUSTOMER, timestamp: AT, id: "wamid.K", ...message }] });
  expect(events).toHaveLength(1);
  return events[0]!;
};
const bodyOf = (event: CloudEvent) => (event.event.type === "message" ? event.event.message.body : null);

describe("mapCloudWebhook: kinds beyond text and media", () => {
  it("an order reads as its items and the customer's note", () => {
    const event = one({
      type: "order",
      order: {
        catalog_id: "194836987003835",
        text: "Entregar à tarde",
        product_items: [
          { product_retailer_id: "di9ozbzfi4", quantity: 2, item_price: 30, currency: "BRL" },
          { product_retailer_id: "nqryix03ez", quantity: 1, item_price: 25, currency: "BRL" },
        ],
      },
    });
    expect(bodyOf(event)).toBe(
      "[pedido]\n2 × di9ozbzfi4 (30 BRL)\n1 × nqryix03ez (25 BRL)\nEntregar à tarde",
    );
  });

  it("a changed number shows Meta's sentence and carries the new number (no contacts array, as Meta sends it)", () => {
    const event = one(
      {
        type: "system",
        system: {
          body: "User Sheena Nelson changed from 16505551234 to 12195555358",
          wa_id: "12195555358",
          type: "user_changed_number",
        },
      },
      undefined,
    );
    expect(bodyOf(event)).toBe("User Sheena Nelson changed from 16505551234 to 12195555358");
    expect(event.identityChange).toEqual({ from: { number: CUSTOMER }, number: "12195555358" });
  });

  it("a changed business-scoped user id carries only the new id", () => {
    const event = map({
      messages: [
        {
          from_user_id: "US.13491208655302741918",
          timestamp: AT,
          id: "wamid.UID",
          type: "system",
          system: {
            body: "User's user id changed",
            type: "user_changed_user_id",
            user_id: "US.99999999999999999999",
            previous_user_id: "US.13491208655302741918",
          },
        },
      ],
    })[0]!;
    expect(event.identityChange).toEqual({
      from: { number: "", userId: "US.13491208655302741918" },
      userId: "US.99999999999999999999",
    });
  });

  it("a Flow's answer (nfm_reply) reads as its body and the fields filled", () => {
    const event = one({
      type: "interactive",
      interactive: {
        type: "nfm_reply",
        nfm_reply: {
          name: "flow",
          body: "Sent",
          response_json:
            '{"flow_token": "AQAAAAACS5FpgQ_cAAAAAD0QI3s.", "nome": "Ana", "data": "2026-12-01"}',
        },
      },
    });
    expect(bodyOf(event)).toBe("Sent\nnome: Ana\ndata: 2026-12-01");
  });

  it("request_welcome (a first chat opened, nothing written) is a message on the ticket", () => {
    expect(bodyOf(one({ type: "request_welcome" }))).toBe("[o cliente abriu a conversa pela primeira vez]");
  });

  it("unsupported and unknown types become '[mensagem não suportada: tipo]'", () => {
    expect(
      bodyOf(
        one({
          type: "unsupported",
          errors: [
            {
              code: 131051,
              title: "Message type unknown",
              message: "Message type unknown",
              error_data: { details: "Message type is currently not supported." },
            },
          ],
          unsupported: { type: "edit" },
        }),
      ),
    ).toBe("[mensagem não suportada: edit]");
    expect(bodyOf(one({ type: "poll_vote", poll_vote: {} }))).toBe("[mensagem não suportada: poll_vote]");
    expect(bodyOf(one({ type: "interactive", interactive: { type: "call_permission_reply" } }))).toBe(
      "[mensagem não suportada: interactive/call_permission_reply]",
    );
  });

  it("a message from an ad (referral) shows the ad before the customer's text", () => {
    const event = one({
      type: "text",
      text: { body: "Quero saber mais" },
      referral: {
        source_url: "https://fb.me/3cr4Wqqkv",
        source_id: "120226305854810726",
        source_type: "ad",
        headline: "Promoção de verão",
        body: "Frete grátis",
        media_type: "image",
        ctwa_clid:
          "ARAkLkA8rmlFeiCktEJQ-QTwRiyYHAFDLMNDBH0CD3qpjd0HR4irJ6LEkR7JwFF4XvnO2E4Nx0-eM-GABDLOPaOdRMXP1",
      },
    });
    expect(bodyOf(event)).toBe(
      "[anúncio] Promoção de verão — Frete grátis https://fb.me/3cr4Wqqkv\nQuero saber mais",
    );
  });
});

describe("mapCloudWebhook: business-scoped user ids (BSUID)", () => {
  it("a customer who withholds the number is addressed by user_id, with the profile name", () => {
    const events = map({
      contacts: [{ profile: { name: "Maria" }, user_id: "BR.1502576394655843" }],
      messages: [
        {
          from_user_id: "BR.1502576394655843",
          timestamp: AT,
          id: "wamid.B",
          type: "text",
          text: { body: "oi" },
        },
      ],
    });
    expect(events.map((e) => e.event)).toEqual([
      {
        type: "message",
        message: expect.objectContaining({
          chat: { number: "", isGroup: false, lid: "BR.1502576394655843" },
          pushName: "Maria",
          body: "oi",
        }),
      },
    ]);
  });

  it("with both, the number leads and the user id rides along; a message naming no one is skipped", () => {
    const events = map({
      contacts: [{ profile: { name: "Sheena" }, wa_id: CUSTOMER, user_id: "US.1349" }],
      messages: [{ from: CUSTOMER, timestamp: AT, id: "wamid.1", type: "text", text: { body: "a" } }],
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toMatchObject({
      message: { chat: { number: CUSTOMER, isGroup: false, lid: "US.1349" } },
    });
    expect(map({ messages: [{ timestamp: AT, id: "wamid.2", type: "text", text: { body: "b" } }] })).toEqual(
      [],
    );
  });

  it("a status carries our callback id (biz_opaque_callback_data) to settle a send whose answer was lost", () => {
    const events = map({
      statuses: [
        {
          id: "wamid.OUT",
          status: "sent",
          timestamp: AT,
          recipient_user_id: "BR.1502576394655843",
          biz_opaque_callback_data: "3EB0ABC",
        },
      ],
    });
    expect(events).toEqual([
      {
        phoneNumberId: PHONE_NUMBER_ID,
        event: { type: "ack", id: "wamid.OUT", ack: 2 },
        callbackData: "3EB0ABC",
      },
    ]);
  });
});
