import type { GroupMetadata, WAMessage } from "./lib.js";
import { describe, expect, it } from "vitest";
import { settle, startProvider } from "./fixtures/harness.js";
import { fixtures } from "./fixtures/messages.js";

/** Groups and presence on a Baileys session: metadata kept by WhatsApp's group events, names, typing. */

const GROUP = "120363025246125486@g.us";
const group = (over: Partial<GroupMetadata> = {}): GroupMetadata => ({
  id: GROUP,
  subject: "Clientes VIP",
  owner: undefined,
  participants: [
    { id: "98765432109876@lid", phoneNumber: "5521998877665@s.whatsapp.net", admin: "superadmin" },
    { id: "11122233344455@lid", phoneNumber: "5511912345678@s.whatsapp.net", admin: null },
  ],
  ...over,
});

/** Yields to the event loop until `check` holds: the session hands its events to the sink asynchronously. */
async function until(check: () => boolean, timeoutMs = 2_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The group message fixture without the author's push name (WhatsApp omits it at times). */
const nameless: WAMessage = { ...fixtures.group, pushName: undefined };

async function cachedOf(configs: Awaited<ReturnType<typeof startProvider>>["configs"]) {
  return configs[0]!.cachedGroupMetadata!(GROUP);
}

describe("Baileys groups", () => {
  it("hands Baileys the groups WhatsApp told of, kept current by subject and participant events", async () => {
    const { current, configs, connect } = await startProvider();
    await connect();
    expect(await cachedOf(configs)).toBeUndefined();

    current().fire("groups.upsert", [group()]);
    expect((await cachedOf(configs))?.participants).toHaveLength(2);

    current().fire("group-participants.update", {
      id: GROUP,
      author: "98765432109876@lid",
      participants: [{ id: "55566677788899@lid", phoneNumber: "5531987654321@s.whatsapp.net" }],
      action: "add",
    });
    current().fire("group-participants.update", {
      id: GROUP,
      author: "98765432109876@lid",
      participants: [{ id: "11122233344455@lid" }],
      action: "promote",
    });
    current().fire("group-participants.update", {
      id: GROUP,
      author: "98765432109876@lid",
      participants: [{ id: "98765432109876@lid" }],
      action: "remove",
    });
    current().fire("groups.update", [{ id: GROUP, subject: "Clientes Ouro", announce: true }]);
    const cached = await cachedOf(configs);
    expect(cached).toMatchObject({ subject: "Clientes Ouro", announce: true, size: 2 });
    expect(cached?.participants.map((p) => [p.id, p.admin ?? null])).toStrictEqual([
      ["11122233344455@lid", "admin"],
      ["55566677788899@lid", null],
    ]);
  });

  it("names the group's contact by its subject, from the events or fetched once when a group is first heard of", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    current().groupsKnown.set(GROUP, group());
    current().fire("messages.upsert", { type: "notify", messages: [fixtures.group, fixtures.group] });
    await until(
      () =>
        events.filter((e) => e.type === "message").length === 2 && events.some((e) => e.type === "contact"),
    );
    // One lookup for the burst, and the subject as the group contact's name.
    expect(current().groupLookups).toStrictEqual([GROUP]);
    expect(events.filter((e) => e.type === "contact")).toStrictEqual([
      { type: "contact", address: { number: "120363025246125486", isGroup: true }, name: "Clientes VIP" },
    ]);
    const before = events.length;
    current().fire("groups.update", [{ id: GROUP, subject: "Clientes Ouro" }]);
    await until(() => events.length > before);
    expect(events.at(-1)).toStrictEqual({
      type: "contact",
      address: { number: "120363025246125486", isGroup: true },
      name: "Clientes Ouro",
    });
  });

  it("shows a participant by the name last seen for them when a message comes without one", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    const authors = () =>
      events.flatMap((e) => (e.type === "message" ? [e.message.participant?.name ?? null] : []));

    // Nothing known yet: no name to show.
    current().fire("messages.upsert", { type: "notify", messages: [nameless] });
    // A message with the push name teaches it; later nameless ones carry it.
    current().fire("messages.upsert", { type: "notify", messages: [fixtures.group, nameless] });
    // A contact's saved name is learnt too, under its phone number or its LID.
    current().fire("contacts.upsert", [{ id: "98765432109876@lid", notify: "Carlos Souza" }]);
    current().fire("messages.upsert", { type: "notify", messages: [nameless] });
    await until(() => authors().length === 4);
    expect(authors()).toStrictEqual([null, "Carlos", "Carlos", "Carlos Souza"]);
  });
});

describe("Baileys presence", () => {
  it("subscribes to a chat's presence when asked (an agent opened it), once per socket, again after a reconnect", async () => {
    // Reconnects at once after the drop (the backoff is not what this is about).
    const { session, current, connect, sockets } = await startProvider({ backoff: () => 0 });
    const customer = { number: "5511987654321", isGroup: false };
    // Not connected: nothing to ask, no error.
    await session.watchPresence!(customer);
    await connect();
    await session.watchPresence!(customer);
    await session.watchPresence!(customer);
    expect(current().presenceSubscriptions).toStrictEqual(["5511987654321@s.whatsapp.net"]);

    current().fire("connection.update", {
      connection: "close",
      lastDisconnect: { error: undefined, date: new Date() },
    });
    await until(() => sockets.length === 2);
    await connect();
    await session.watchPresence!(customer);
    expect(current().presenceSubscriptions).toStrictEqual(["5511987654321@s.whatsapp.net"]);
  });

  it("hands the customer's typing to the pipeline as a presence event", async () => {
    const { current, connect, events } = await startProvider();
    await connect();
    current().fire("presence.update", {
      id: "5511987654321@s.whatsapp.net",
      presences: { "5511987654321@s.whatsapp.net": { lastKnownPresence: "composing" } },
    });
    await until(() => events.some((e) => e.type === "presence"));
    expect(events.at(-1)).toStrictEqual({
      type: "presence",
      chat: { number: "5511987654321", isGroup: false },
      presence: "composing",
    });
  });
});

describe("Baileys group metadata cache", () => {
  it("is filled at connect with every group the number is in, each named once", async () => {
    const { current, configs, connect, events, sockets } = await startProvider({ backoff: () => 0 });
    current().groupsKnown.set(GROUP, group());
    await connect();
    await until(() => events.some((e) => e.type === "contact"));
    expect(current().groupFetches).toBe(1);
    // A send to the group finds it without asking WhatsApp.
    expect((await cachedOf(configs))?.participants).toHaveLength(2);
    expect(current().groupLookups).toStrictEqual([]);
    expect(events.filter((e) => e.type === "contact")).toStrictEqual([
      { type: "contact", address: { number: "120363025246125486", isGroup: true }, name: "Clientes VIP" },
    ]);

    // A reconnect asks again; an unchanged subject names nothing again.
    current().fire("connection.update", {
      connection: "close",
      lastDisconnect: { error: undefined, date: new Date() },
    });
    await until(() => sockets.length === 2);
    current().groupsKnown.set(GROUP, group());
    await connect();
    await until(() => current().groupFetches === 1);
    await settle();
    expect(events.filter((e) => e.type === "contact")).toHaveLength(1);
  });

  it("on a miss asks WhatsApp once, however many sends wait, and keeps the answer", async () => {
    const { current, configs, connect } = await startProvider();
    await connect();
    current().groupsKnown.set(GROUP, group());
    const cached = configs[0]!.cachedGroupMetadata!;
    const [first, second] = await Promise.all([cached(GROUP), cached(GROUP)]);
    expect(first?.subject).toBe("Clientes VIP");
    expect(second?.subject).toBe("Clientes VIP");
    expect((await cached(GROUP))?.subject).toBe("Clientes VIP");
    expect(current().groupLookups).toStrictEqual([GROUP]);
  });
});

describe("Baileys group quotes and read receipts", () => {
  it("name the author of the group message they quote or mark read", async () => {
    const { session, current, connect, events } = await startProvider();
    await connect();
    current().fire("messages.upsert", { type: "notify", messages: [fixtures.group] });
    await until(() => events.some((e) => e.type === "message"));
    const chat = { number: "120363025246125486", isGroup: true };

    await session.send({
      to: chat,
      body: "Bom dia!",
      quoted: { id: "GRP1", fromMe: false, body: "Bom dia, grupo" },
    });
    expect(current().sent[0]!.options?.quoted?.key).toStrictEqual({
      remoteJid: GROUP,
      id: "GRP1",
      fromMe: false,
      participant: "98765432109876@lid",
    });

    await session.markRead(chat, ["GRP1"]);
    expect(current().read).toStrictEqual([
      [{ remoteJid: GROUP, id: "GRP1", fromMe: false, participant: "98765432109876@lid" }],
    ]);
  });

  it("leave a one-to-one chat's keys as they were", async () => {
    const { session, current, connect } = await startProvider();
    await connect();
    current().knownNumbers = [{ jid: "5511987654321@s.whatsapp.net", exists: true }];
    await session.markRead({ number: "5511987654321", isGroup: false }, ["TEXT1"]);
    expect(current().read[0]).toStrictEqual([
      { remoteJid: "5511987654321@s.whatsapp.net", id: "TEXT1", fromMe: false },
    ]);
  });
});
