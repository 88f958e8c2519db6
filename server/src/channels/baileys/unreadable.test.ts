import { proto } from "./lib.js";
import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompanyEventPayloads, WhatsappDetailDTO } from "@atende/contracts";
import { messages, tickets, whatsapps } from "../../db/schema/index.js";
import { caller, expectOk } from "../../test/calls.js";
import { buildTeam } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import type { FakeSocket } from "./fixtures/fakeSocket.js";
import { fakeSocketProvider } from "./fixtures/harness.js";
import { fixtures, retried, unreadable, waMessage } from "./fixtures/messages.js";
import { UNREADABLE_TEXT } from "./mapping.js";

/**
 * A message WhatsApp delivered that this device could not read (not decrypted, without content,
 * view-once on a linked device) is kept as a placeholder in the customer's ticket, and the agents
 * see it at once; when WhatsApp's retry brings the content under the same id, the placeholder
 * becomes the message in place and the agents see the change. Baileys on fake sockets, driven as
 * WhatsApp drives the real one; the inbound pipeline, the database and the agents' sockets are real.
 */

let ctx: TestContext;
const fakeSockets: FakeSocket[] = [];
const call = caller(() => ctx);
let team: Awaited<ReturnType<typeof buildTeam>>;
let whatsappId: number;
let browser: Socket;
let heard: CompanyEventPayloads["appMessage"][];

const whatsapp = () => fakeSockets.at(-1)!;

beforeAll(async () => {
  ctx = await createTestContext(
    { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 },
    {
      providers: {
        // WhatsApp's media servers answer with the photo's bytes.
        beta: fakeSocketProvider(fakeSockets, undefined, { downloadMedia: async () => Buffer.from("jpeg") }),
      },
    },
  );
  ctx.built.startBackground();
  team = await buildTeam(ctx);
  const created = expectOk<WhatsappDetailDTO>(
    await call("POST", "/whatsapp", team.adminLogin, { name: "WhatsApp Web", provider: "beta" }),
    201,
  );
  whatsappId = created.id;
  await waitFor(() => fakeSockets.length > 0, 10_000);
  whatsapp().user = { id: "5511900000000:4@s.whatsapp.net", name: "Loja" };
  whatsapp().fire("connection.update", { connection: "open" });
  await waitFor(async () => {
    const [row] = await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, created.id));
    return row?.status === "CONNECTED";
  }, 10_000);
  browser = await connectSocket(await ctx.url(), team.adminLogin.token);
  heard = record<CompanyEventPayloads["appMessage"]>(browser, `company-${team.company.id}-appMessage`);
}, 30_000);

afterAll(async () => {
  browser.close();
  await ctx.close();
});

async function rowsOf(wid: string) {
  return ctx.deps.db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.companyId, team.company.id),
        eq(messages.whatsappId, whatsappId),
        eq(messages.wid, wid),
      ),
    );
}

async function storedAs(wid: string, check: (row: typeof messages.$inferSelect) => boolean) {
  await waitFor(async () => {
    const [row] = await rowsOf(wid);
    return !!row && check(row);
  }, 10_000);
  const rows = await rowsOf(wid);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

async function ticketOf(id: number) {
  const [row] = await ctx.deps.db.select().from(tickets).where(eq(tickets.id, id));
  return row!;
}

const heardOf = (messageId: number) => heard.filter((e) => e.message.id === messageId);

describe("a message this device could not read", () => {
  it("is kept as a placeholder the agents see at once; the retry's content replaces it in place, live", async () => {
    await whatsapp().receive(unreadable.undecrypted);
    const placeholder = await storedAs("STUB1", () => true);
    expect(placeholder).toMatchObject({ mediaType: "unreadable", body: UNREADABLE_TEXT, fromMe: false });
    expect((await ticketOf(placeholder.ticketId)).lastMessage).toBe(UNREADABLE_TEXT);
    await waitFor(() => heardOf(placeholder.id).some((e) => e.action === "create"));
    expect(heardOf(placeholder.id)[0]!.message).toMatchObject({
      mediaType: "unreadable",
      body: UNREADABLE_TEXT,
    });

    await whatsapp().receive(retried(unreadable.undecrypted, { conversation: "Quero saber do meu pedido" }));
    const replaced = await storedAs("STUB1", (row) => row.mediaType === "chat");
    expect(replaced).toMatchObject({
      id: placeholder.id,
      ticketId: placeholder.ticketId,
      body: "Quero saber do meu pedido",
    });
    expect((await ticketOf(placeholder.ticketId)).lastMessage).toBe("Quero saber do meu pedido");
    await waitFor(() => heardOf(placeholder.id).some((e) => e.action === "update"));
    expect(heardOf(placeholder.id).map((e) => [e.action, e.message.mediaType, e.message.body])).toEqual([
      ["create", "unreadable", UNREADABLE_TEXT],
      ["update", "chat", "Quero saber do meu pedido"],
    ]);
  });

  it("one that came without content becomes the photo the phone resends, its file downloaded as any other", async () => {
    await whatsapp().receive(unreadable.absent);
    const placeholder = await storedAs("ABSENT1", () => true);
    expect(placeholder.mediaType).toBe("unreadable");
    whatsapp().fire("messages.upsert", {
      type: "notify",
      messages: [
        retried(unreadable.absent, proto.Message.toObject(proto.Message.fromObject(fixtures.image.message!))),
      ],
    });
    const replaced = await storedAs("ABSENT1", (row) => row.mediaType === "image");
    expect(replaced).toMatchObject({ id: placeholder.id, body: "Nota fiscal", mediaMime: "image/jpeg" });
    const downloaded = await storedAs("ABSENT1", (row) => row.mediaStatus === null && row.mediaPath !== null);
    expect(await ctx.deps.media.read(team.company.id, downloaded.mediaPath!)).toStrictEqual(
      Buffer.from("jpeg"),
    );
    await waitFor(() => heardOf(placeholder.id).some((e) => e.message.mediaUrl !== null));
  });

  it("view-once on this linked device, and WhatsApp's own placeholder, are kept as placeholders too", async () => {
    await whatsapp().receive(unreadable.viewOnce);
    await whatsapp().receive(unreadable.maskedForLinkedDevices);
    for (const wid of ["VIEWONCE1", "MASKED1"])
      expect(await storedAs(wid, () => true)).toMatchObject({
        mediaType: "unreadable",
        body: UNREADABLE_TEXT,
      });
  });

  it("a message that was read is not touched by a redelivery of its id, readable or not", async () => {
    await whatsapp().receive(fixtures.text);
    const original = await storedAs("TEXT1", () => true);
    await waitFor(() => heardOf(original.id).length > 0);
    const redelivered = waMessage({
      key: fixtures.text.key,
      messageTimestamp: fixtures.text.messageTimestamp,
      message: { conversation: "outro texto" },
    });
    await whatsapp().receive(redelivered);
    // Its placeholder arriving late (the stub after the content) changes nothing either.
    await whatsapp().receive(
      waMessage({
        key: fixtures.text.key,
        messageTimestamp: fixtures.text.messageTimestamp,
        messageStubType: "CIPHERTEXT",
      }),
    );
    // A message after them: once it is stored, both were handled.
    await whatsapp().receive(
      waMessage({ key: { ...fixtures.text.key, id: "AFTER1" }, message: { conversation: "mais uma" } }),
    );
    await storedAs("AFTER1", () => true);
    expect((await rowsOf("TEXT1"))[0]).toMatchObject({
      id: original.id,
      body: "Olá, preciso de ajuda",
      mediaType: "chat",
      updatedAt: original.updatedAt,
    });
    expect(heardOf(original.id).map((e) => e.action)).toEqual(["create"]);
  });
});
