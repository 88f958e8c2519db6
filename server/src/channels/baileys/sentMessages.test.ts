import { proto } from "./lib.js";
import { describe, expect, it } from "vitest";
import { startProvider } from "./fixtures/harness.js";
import { memoryAuthStore } from "./fixtures/memoryAuthStore.js";

const to = { number: "14155550123", isGroup: false };
const jid = "14155550123@s.whatsapp.net";

describe("Baileys: our id on our sends", () => {
  it("sends with the message id Atende chose and answers it; a send without one answers Baileys' id", async () => {
    const { session, connect, current } = await startProvider();
    await connect();
    expect(await session.send({ id: "3EB0C0FFEE0001", to, body: "Olá" })).toStrictEqual({
      id: "3EB0C0FFEE0001",
    });
    // A retry after a restart mid-send goes out under the same id: WhatsApp and the acks see one message.
    expect(await session.send({ id: "3EB0C0FFEE0001", to, body: "Olá" })).toStrictEqual({
      id: "3EB0C0FFEE0001",
    });
    expect(await session.send({ to, body: "sem id" })).toStrictEqual({ id: "SENT1" });
    expect(current().sent.map((s) => [s.jid, s.options?.messageId])).toStrictEqual([
      [jid, "3EB0C0FFEE0001"],
      [jid, "3EB0C0FFEE0001"],
      [jid, undefined],
    ]);
  });

  it("a reply keeps our id beside the quote", async () => {
    const { session, connect, current } = await startProvider();
    await connect();
    await session.send({
      id: "3EB0C0FFEE0002",
      to,
      body: "Sim",
      quoted: { id: "Q1", fromMe: false, body: "?" },
    });
    expect(current().sent[0]!.options).toMatchObject({
      messageId: "3EB0C0FFEE0002",
      quoted: { key: { id: "Q1" } },
    });
  });
});

describe("Baileys: a phone asking for a message again", () => {
  it("gets what we sent from the store (getMessage), after a restart or on another instance too", async () => {
    const auth = memoryAuthStore();
    const first = await startProvider({}, auth);
    await first.connect();
    await first.session.send({ id: "3EB0C0FFEE0003", to, body: "Seu pedido saiu para entrega" });
    await first.session.edit(to, "3EB0C0FFEE0003", "Seu pedido saiu para entrega hoje");

    const expected = proto.Message.fromObject({
      extendedTextMessage: { text: "Seu pedido saiu para entrega" },
    });
    const getMessage = first.configs[0]!.getMessage!;
    expect(await getMessage({ remoteJid: jid, id: "3EB0C0FFEE0003", fromMe: true })).toStrictEqual(expected);

    await first.session.stop();
    const second = await startProvider({}, auth); // the lease moved: a new process, the same database
    const again = second.configs[0]!.getMessage!;
    expect(await again({ remoteJid: jid, id: "3EB0C0FFEE0003", fromMe: true })).toStrictEqual(expected);
    expect(await again({ remoteJid: jid, id: "NEVER-SENT", fromMe: true })).toBeUndefined();
  });

  it("a send whose keeping fails still answers its id (the message went)", async () => {
    const auth = memoryAuthStore();
    const { session, connect } = await startProvider({}, auth);
    await connect();
    auth.store.set = async () => {
      throw new Error("database down");
    };
    expect(await session.send({ id: "3EB0C0FFEE0004", to, body: "x" })).toStrictEqual({
      id: "3EB0C0FFEE0004",
    });
  });
});
