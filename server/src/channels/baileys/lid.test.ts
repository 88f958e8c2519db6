import { describe, expect, it } from "vitest";
import type { ChannelEvent } from "../provider.js";
import { settle, startProvider } from "./fixtures/harness.js";
import { calls, fixtures } from "./fixtures/messages.js";

/** The half of a customer's address a message lacks comes from Baileys' LID mapping store. */

const LID = "123456789012345";
const PHONE = "5511955554444";
const CUSTOMER_PHONE = "5511987654321"; // fixtures.text's sender

const messages = (events: ChannelEvent[]) =>
  events.flatMap((e) => (e.type === "message" ? [{ id: e.message.id, chat: e.message.chat }] : []));

describe("Baileys: a customer's LID and number", () => {
  it("a message by LID alone whose number the mapping store knows reaches the pipeline with both", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    current().lidPairs.set(LID, PHONE);
    current().fire("messages.upsert", { type: "notify", messages: [fixtures.lidOnly] });
    await settle();
    expect(messages(events)).toStrictEqual([
      { id: "LID2", chat: { number: PHONE, isGroup: false, lid: LID } },
    ]);
  });

  it("a message by number alone gets its LID; a number without one is not asked again at every message", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    current().fire("messages.upsert", { type: "notify", messages: [fixtures.text, fixtures.forwarded] });
    await settle();
    expect(messages(events).map((m) => m.chat)).toStrictEqual([
      { number: CUSTOMER_PHONE, isGroup: false },
      { number: CUSTOMER_PHONE, isGroup: false },
    ]);
    expect(current().lidLookups).toStrictEqual([`${CUSTOMER_PHONE}@s.whatsapp.net`]);

    const { current: other, connect: connectOther, events: otherEvents } = await startProvider();
    await connectOther();
    other().lidPairs.set("98765", CUSTOMER_PHONE);
    other().fire("messages.upsert", { type: "notify", messages: [fixtures.text] });
    await settle();
    expect(messages(otherEvents)[0]!.chat).toStrictEqual({
      number: CUSTOMER_PHONE,
      isGroup: false,
      lid: "98765",
    });
  });

  it("a message that carries both halves is not looked up; one whose lookup fails still goes, by the half it has, in order", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    current().lidStoreFails = true;
    current().fire("messages.upsert", {
      type: "notify",
      messages: [fixtures.lidChat, fixtures.lidOnly, fixtures.image],
    });
    await settle();
    expect(messages(events)).toStrictEqual([
      { id: "LID1", chat: { number: PHONE, isGroup: false, lid: LID } },
      { id: "LID2", chat: { number: "", isGroup: false, lid: LID } },
      { id: "IMG1", chat: { number: CUSTOMER_PHONE, isGroup: false } },
    ]);
    expect(current().lidLookups).toStrictEqual([`${LID}@lid`, `${CUSTOMER_PHONE}@s.whatsapp.net`]);
  });

  it("lid-mapping.update tells the pipeline the pair, as a contact with both halves", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    current().fire("lid-mapping.update", { lid: `${LID}@lid`, pn: `${PHONE}@s.whatsapp.net` });
    current().fire("lid-mapping.update", { lid: "not-a-lid", pn: `${PHONE}@s.whatsapp.net` });
    await settle();
    expect(events.filter((e) => e.type === "contact")).toStrictEqual([
      { type: "contact", address: { number: PHONE, isGroup: false, lid: LID } },
    ]);
  });

  it("a contact from the address book with a LID and a number, even nameless, tells the pair", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    current().fire("contacts.upsert", [{ id: `${LID}@lid`, phoneNumber: `${PHONE}@s.whatsapp.net` }]);
    await settle();
    expect(events.filter((e) => e.type === "contact")).toStrictEqual([
      { type: "contact", address: { number: PHONE, isGroup: false, lid: LID } },
    ]);
  });

  it("a call from a LID without the caller's number gets it from the mapping store", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    current().lidPairs.set(LID, PHONE);
    current().fire("call", [{ ...calls.videoOffer!, callerPn: undefined }]);
    await settle();
    expect(events.filter((e) => e.type === "call").map((e) => e.type === "call" && e.from)).toStrictEqual([
      { number: PHONE, isGroup: false, lid: LID },
    ]);
  });
});
