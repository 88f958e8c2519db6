import { proto } from "./lib.js";
import { and, eq, inArray } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompanyEventPayloads, WhatsappDetailDTO, WhatsappHistoryProgress } from "@atende/contracts";
import { contacts, jobs, messages, tickets, whatsapps } from "../../db/schema/index.js";
import { CHATBOT_JOB } from "../../modules/bots/menu/queries.js";
import { WEBHOOK_DELIVERY_JOB } from "../../modules/webhooks/dispatch.js";
import { TINY_PNG, caller, expectError, expectOk } from "../../test/calls.js";
import { buildContact, buildTeam, buildTicket, newNumber } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { FakeSocket } from "./fixtures/fakeSocket.js";
import { silent, startProvider } from "./fixtures/harness.js";
import { DAY, HOUR, historyPart, pastMessage } from "./fixtures/history.js";
import { waMessage } from "./fixtures/messages.js";
import { baileysProvider } from "./provider.js";

/**
 * What customers wrote while the number was unlinked, as the phone sends it after a new link
 * (WhatsApp's history sync): imported once, into the right tickets, without ringing anyone or
 * waking a bot, a campaign or a webhook. Baileys runs on fake sockets fired with history parts read
 * by Baileys' own history code; the pipeline, the database and the agents' sockets are real.
 */

let ctx: TestContext;
const fakeSockets: FakeSocket[] = [];
const call = caller(() => ctx);
let team: Awaited<ReturnType<typeof buildTeam>>;
let whatsappId: number;
let browser: Socket;
let heardMessages: CompanyEventPayloads["appMessage"][];
let heardTickets: CompanyEventPayloads["ticket"][];
let progress: WhatsappHistoryProgress[];

const whatsapp = () => fakeSockets.at(-1)!;
const jidOf = (number: string) => `${number}@s.whatsapp.net`;

const image = {
  imageMessage: {
    url: "https://mmg.whatsapp.net/v/t62.7118-24/0_n.enc",
    directPath: "/v/t62.7118-24/0_n.enc",
    mediaKey: Buffer.alloc(32, 7).toString("base64"),
    fileSha256: Buffer.alloc(32, 1).toString("base64"),
    fileEncSha256: Buffer.alloc(32, 2).toString("base64"),
    fileLength: TINY_PNG.length,
    mimetype: "image/png",
    caption: "Comprovante",
  },
};

/** Fires a history part and waits for the connections screen to hear the import of it. */
async function sync(part: ReturnType<typeof historyPart>): Promise<WhatsappHistoryProgress> {
  const before = progress.length;
  whatsapp().fire("messaging-history.set", part);
  await waitFor(() => progress.length > before);
  return progress.at(-1)!;
}

async function contactByNumber(number: string) {
  const [row] = await ctx.deps.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, team.company.id), eq(contacts.number, number)));
  return row;
}

async function ticketsOf(contactId: number) {
  return ctx.deps.db.select().from(tickets).where(eq(tickets.contactId, contactId)).orderBy(tickets.id);
}

async function messagesOf(ticketId: number) {
  return ctx.deps.db
    .select()
    .from(messages)
    .where(eq(messages.ticketId, ticketId))
    .orderBy(messages.createdAt, messages.id);
}

/** The company's jobs of the kinds a new message wakes (a bot's turn, an outbound webhook's delivery). */
async function wakeJobs() {
  return ctx.deps.db
    .select({ type: jobs.type, payload: jobs.payload })
    .from(jobs)
    .where(and(eq(jobs.companyId, team.company.id), inArray(jobs.type, [CHATBOT_JOB, WEBHOOK_DELIVERY_JOB])));
}

beforeAll(async () => {
  ctx = await createTestContext(
    { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 },
    {
      providers: {
        beta: baileysProvider({
          logger: silent,
          makeSocket: () => {
            const socket = new FakeSocket();
            fakeSockets.push(socket);
            return socket;
          },
          downloadMedia: async () => TINY_PNG,
        }),
      },
    },
  );
  ctx.built.startBackground();
  team = await buildTeam(ctx);
  // A connection whose one queue has a greeting: a customer's live message wakes the bot.
  const created = expectOk<WhatsappDetailDTO>(
    await call("POST", "/whatsapp", team.adminLogin, {
      name: "WhatsApp Web",
      provider: "beta",
      queueIds: [team.queue.id],
      greetingMessage: "Olá! Escolha uma opção.",
    }),
    201,
  );
  whatsappId = created.id;
  // An integration listening to every message and ticket.
  expectOk(
    await call("POST", "/webhooks", team.adminLogin, {
      url: "http://127.0.0.1:9/hook",
      events: ["message.created", "ticket.created", "ticket.updated", "contact.created"],
    }),
    201,
  );
  await waitFor(() => fakeSockets.length > 0);
  whatsapp().user = { id: "5511900000001:4@s.whatsapp.net", name: "Loja" };
  whatsapp().fire("connection.update", { connection: "open" });
  await waitFor(async () => {
    const [row] = await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId));
    return row?.status === "CONNECTED";
  });
  browser = await connectSocket(await ctx.url(), team.adminLogin.token);
  heardMessages = record(browser, `company-${team.company.id}-appMessage`);
  heardTickets = record(browser, `company-${team.company.id}-ticket`);
  progress = record(browser, `company-${team.company.id}-whatsappHistory`);
});

afterAll(async () => {
  browser?.close();
  await ctx.close();
});

describe("WhatsApp history after a link", () => {
  it("asks the phone for the whole history, every part of it", async () => {
    const { configs } = await startProvider();
    expect(configs[0]).toMatchObject({ syncFullHistory: true });
    for (const syncType of [
      proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
      proto.HistorySync.HistorySyncType.RECENT,
      proto.HistorySync.HistorySyncType.FULL,
    ])
      expect(configs[0]!.shouldSyncHistoryMessage!({ syncType })).toBe(true);
  });

  it("puts what a new customer wrote into a new waiting ticket, unread, without ringing or waking anyone", async () => {
    const number = newNumber();
    const jid = jidOf(number);
    const part = historyPart([
      {
        id: jid,
        messages: [
          pastMessage(jid, "GAP-A1", 2 * DAY, { conversation: "Vocês abrem sábado?" }, { pushName: "Rita" }),
          pastMessage(jid, "GAP-A2", DAY, image, { pushName: "Rita" }),
        ],
      },
    ]);
    expect(await sync(part)).toMatchObject({ whatsappId, imported: 2, running: false });

    const contact = await contactByNumber(number);
    expect(contact?.name).toBe("Rita");
    const [ticket] = await ticketsOf(contact!.id);
    expect(ticket).toMatchObject({
      status: "pending",
      queueId: team.queue.id,
      unreadMessages: 2,
      lastMessage: "Comprovante",
    });
    const stored = await messagesOf(ticket!.id);
    expect(stored.map((m) => [m.wid, m.body, m.fromMe, m.read])).toStrictEqual([
      ["GAP-A1", "Vocês abrem sábado?", false, false],
      ["GAP-A2", "Comprovante", false, false],
    ]);
    // The message keeps the time the customer wrote it.
    expect(stored[0]!.createdAt.getTime()).toBeLessThan(Date.now() - 2 * DAY * 1000 + 60_000);
    // The picture is fetched like a live one.
    await waitFor(async () => (await messagesOf(ticket!.id))[1]!.mediaPath !== null);

    // The lists hear the ticket; nobody hears a new message (the picture arriving shows as a change
    // of its message, which rings no one), no bot turn, no webhook.
    expect(heardTickets.some((e) => e.action === "update" && e.ticket.id === ticket!.id)).toBe(true);
    expect(heardTickets.every((e) => e.action !== "update" || !e.previous)).toBe(true);
    expect(heardMessages.filter((e) => e.action === "create")).toStrictEqual([]);
    expect(await wakeJobs()).toStrictEqual([]);

    // The same customer writing now is a live message: it rings, and wakes the webhook.
    whatsapp().fire("messages.upsert", {
      type: "notify",
      messages: [waMessage(pastMessage(jid, "LIVE-A3", 0, { conversation: "Alô?" }, { pushName: "Rita" }))],
    });
    await waitFor(() => heardMessages.some((e) => e.action === "create" && e.message.body === "Alô?"));
    await waitFor(async () => (await wakeJobs()).some((j) => j.type === WEBHOOK_DELIVERY_JOB));
  });

  it("imports the same history once: a second time changes nothing", async () => {
    const number = newNumber();
    const jid = jidOf(number);
    const part = historyPart([
      {
        id: jid,
        messages: [pastMessage(jid, "GAP-B1", HOUR, { conversation: "Bom dia" }, { pushName: "Caio" })],
      },
    ]);
    expect((await sync(part)).imported).toBe(1);
    const contact = await contactByNumber(number);
    const before = await ticketsOf(contact!.id);

    expect(await sync(part)).toMatchObject({ imported: 0, running: false });
    expect(await ticketsOf(contact!.id)).toStrictEqual(before);
    expect(await messagesOf(before[0]!.id)).toHaveLength(1);
  });

  it("imports only the company's last days of history; a longer setting reaches further", async () => {
    const number = newNumber();
    const jid = jidOf(number);
    const part = historyPart([
      {
        id: jid,
        messages: [
          pastMessage(jid, "GAP-C1", 5 * DAY, { conversation: "Faz tempo" }, { pushName: "Lia" }),
          pastMessage(jid, "GAP-C2", DAY, { conversation: "Ontem" }, { pushName: "Lia" }),
        ],
      },
    ]);
    // Three days unless the company says otherwise.
    expect((await sync(part)).imported).toBe(1);
    const contact = await contactByNumber(number);
    const [ticket] = await ticketsOf(contact!.id);
    expect((await messagesOf(ticket!.id)).map((m) => m.wid)).toStrictEqual(["GAP-C2"]);

    expectOk(await call("PUT", "/settings/historyImportDays", team.adminLogin, { value: "7" }));
    expect((await sync(part)).imported).toBe(1);
    expect((await messagesOf(ticket!.id)).map((m) => m.wid)).toStrictEqual(["GAP-C1", "GAP-C2"]);
    // A value the screen does not offer is refused.
    expectError(
      await call("PUT", "/settings/historyImportDays", team.adminLogin, { value: "400" }),
      400,
      "ERR_VALIDATION",
    );
    expectOk(await call("PUT", "/settings/historyImportDays", team.adminLogin, { value: "3" }));
  });

  it("adds the past to the customer's open ticket, counting unread only what nobody answered", async () => {
    const contact = await buildContact(ctx.deps.db, team.company.id, { name: "Bia" });
    const open = await buildTicket(ctx.deps.db, team.company.id, {
      contactId: contact.id,
      whatsappId,
      status: "open",
      userId: team.agent.id,
      queueId: team.queue.id,
      unreadMessages: 0,
      lastMessage: "Posso ajudar?",
    });
    const jid = jidOf(contact.number);
    const part = historyPart([
      {
        id: jid,
        messages: [
          pastMessage(jid, "GAP-D1", 2 * DAY, { conversation: "O pedido atrasou" }),
          pastMessage(jid, "GAP-D2", 2 * DAY - HOUR, { conversation: "Vou verificar" }, { fromMe: true }),
          pastMessage(jid, "GAP-D3", HOUR, { conversation: "Alguma novidade?" }),
        ],
      },
    ]);
    expect((await sync(part)).imported).toBe(3);
    const [ticket] = await ticketsOf(contact.id);
    expect(ticket).toMatchObject({ id: open.id, status: "open", unreadMessages: 1 });
    expect((await messagesOf(open.id)).map((m) => [m.wid, m.read])).toStrictEqual([
      ["GAP-D1", true],
      ["GAP-D2", true],
      ["GAP-D3", false],
    ]);
  });

  it("keeps a closed conversation's messages in it, and opens a ticket for what came after", async () => {
    const contact = await buildContact(ctx.deps.db, team.company.id, { name: "Edu" });
    const closedAt = new Date(Date.now() - 2 * DAY * 1000);
    const closed = await buildTicket(ctx.deps.db, team.company.id, {
      contactId: contact.id,
      whatsappId,
      status: "closed",
      lastMessage: "Obrigado!",
      updatedAt: closedAt,
    });
    const jid = jidOf(contact.number);
    const part = historyPart([
      {
        id: jid,
        messages: [
          pastMessage(jid, "GAP-E1", 2 * DAY + HOUR, { conversation: "Obrigado pela ajuda" }),
          pastMessage(jid, "GAP-E2", DAY, { conversation: "Preciso de outra coisa" }),
        ],
      },
    ]);
    expect((await sync(part)).imported).toBe(2);
    const [old, fresh] = await ticketsOf(contact.id);
    expect(old).toMatchObject({ id: closed.id, status: "closed", lastMessage: "Obrigado!" });
    expect((await messagesOf(closed.id)).map((m) => [m.wid, m.read])).toStrictEqual([["GAP-E1", true]]);
    expect(fresh).toMatchObject({
      status: "pending",
      unreadMessages: 1,
      lastMessage: "Preciso de outra coisa",
    });
    expect((await messagesOf(fresh!.id)).map((m) => m.wid)).toStrictEqual(["GAP-E2"]);
  });

  it("shows the import on the connections screen while the phone sends parts, and its end", async () => {
    const number = newNumber();
    const jid = jidOf(number);
    const first = historyPart(
      [{ id: jid, messages: [pastMessage(jid, "GAP-F1", HOUR, { conversation: "1" })] }],
      { progress: 40 },
    );
    const second = historyPart(
      [{ id: jid, messages: [pastMessage(jid, "GAP-F2", HOUR / 2, { conversation: "2" })] }],
      { progress: 80 },
    );
    expect(await sync(first)).toMatchObject({ whatsappId, imported: 1, running: true });
    expect(await sync(second)).toMatchObject({ whatsappId, imported: 2, running: true });
    const before = progress.length;
    whatsapp().fire("messaging-history.status", {
      syncType: proto.HistorySync.HistorySyncType.RECENT,
      status: "complete",
      explicit: true,
    });
    await waitFor(() => progress.length > before);
    expect(progress.at(-1)).toMatchObject({ whatsappId, imported: 2, running: false });
  });
});

describe("albums and animated stickers in the inbox", () => {
  it("shows an album as its pictures and a lottie sticker as a sticker, nothing as unsupported", async () => {
    const number = newNumber();
    const jid = jidOf(number);
    const parent = waMessage(
      pastMessage(jid, "ALB-P", 0, { albumMessage: { expectedImageCount: 2 } }, { pushName: "Gil" }),
    );
    const picture = (id: string, index: number, caption: string) =>
      waMessage(
        pastMessage(
          jid,
          id,
          0,
          {
            associatedChildMessage: {
              message: {
                imageMessage: { ...image.imageMessage, caption },
                messageContextInfo: {
                  messageAssociation: {
                    associationType: proto.MessageAssociation.AssociationType.MEDIA_ALBUM,
                    parentMessageKey: { remoteJid: jid, fromMe: false, id: "ALB-P" },
                    messageIndex: index,
                  },
                },
              },
            },
          },
          { pushName: "Gil" },
        ),
      );
    const lottie = waMessage(
      pastMessage(
        jid,
        "LOT-1",
        0,
        {
          lottieStickerMessage: {
            message: {
              stickerMessage: {
                ...image.imageMessage,
                caption: undefined,
                mimetype: "application/was",
                isLottie: true,
                pngThumbnail: TINY_PNG.toString("base64"),
              },
            },
          },
        },
        { pushName: "Gil" },
      ),
    );
    whatsapp().fire("messages.upsert", {
      type: "notify",
      messages: [parent, picture("ALB-1", 0, "Frente"), picture("ALB-2", 1, "Verso"), lottie],
    });
    await waitFor(async () => {
      const contact = await contactByNumber(number);
      const [ticket] = contact ? await ticketsOf(contact.id) : [];
      return !!ticket && (await messagesOf(ticket.id)).length === 3;
    });
    const [ticket] = await ticketsOf((await contactByNumber(number))!.id);
    await waitFor(async () => (await messagesOf(ticket!.id)).every((m) => m.mediaPath !== null));
    const shown = await messagesOf(ticket!.id);
    expect(shown.map((m) => [m.wid, m.mediaType, m.body])).toStrictEqual([
      ["ALB-1", "image", "Frente"],
      ["ALB-2", "image", "Verso"],
      ["LOT-1", "sticker", ""],
    ]);
    expect(shown[2]!.mediaMime).toBe("image/png");
  });
});
