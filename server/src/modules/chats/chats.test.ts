import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  ChatDTO,
  ChatMessageDTO,
  ChatMessagesPage,
  ChatsPage,
  CompanyEventPayloads,
} from "@atende/contracts";
import { TINY_PNG, caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import {
  type Member,
  buildCompany,
  buildMember,
  buildPlan,
  buildQueue,
  buildTicket,
} from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { caughtUp } from "../../test/settled.js";

/**
 * The internal chat on a real database: who belongs to a chat (and nobody else reads, posts or hears
 * it, another company never), the owner's rights, unread counts and read marking, attachments under
 * the chat window's media rules, ticket links, mentions in ticket notes, and the plan gate.
 */

let ctx: TestContext;
let companyId: number;
let queueA: number;
let queueB: number;
let ana: Member;
let bruno: Member;
let carla: Member;
let admin: Member;
let stranger: Member;
const sockets: Socket[] = [];
const call = caller(() => ctx);

type Who = { login: Member["login"] };
const createChat = (who: Who, body: unknown) => call("POST", "/chats", who.login, body);
const makeChat = async (who: Who, title: string, users: Member[]) =>
  expectOk<ChatDTO>(await createChat(who, { title, users: users.map((u) => u.id) }), 201);
const say = async (who: Who, chat: ChatDTO, message: string) =>
  expectOk<ChatMessageDTO>(await call("POST", `/chats/${chat.id}/messages`, who.login, { message }), 201);
const getChat = (who: Who, ref: number | string) => call("GET", `/chats/${ref}`, who.login);
const unreadsOf = (chat: ChatDTO) => Object.fromEntries(chat.users.map((u) => [u.userId, u.unreads]));

/** A multipart message with one file under "medias". */
function mediaForm(data: Buffer, filename: string, mimetype: string, message = "") {
  const boundary = `----atende${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\n${message}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${filename}"\r\nContent-Type: ${mimetype}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  const company = await buildCompany(ctx.deps.db);
  companyId = company.id;
  queueA = (await buildQueue(ctx.deps.db, companyId)).id;
  queueB = (await buildQueue(ctx.deps.db, companyId)).id;
  ana = await buildMember(ctx, companyId, { name: "Ana Souza", queueIds: [queueA] });
  bruno = await buildMember(ctx, companyId, { name: "Bruno Lima", queueIds: [queueA] });
  carla = await buildMember(ctx, companyId, { name: "Carla Dias", queueIds: [queueB] });
  admin = await buildMember(ctx, companyId, { name: "Admin", profile: "admin" });
  stranger = await buildMember(ctx, (await buildCompany(ctx.deps.db)).id, { profile: "admin" });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

describe("chats: creating", () => {
  it("makes the creator owner and member with the chosen colleagues, nothing unread", async () => {
    const chat = await makeChat(ana, "Plantão", [bruno]);
    expect(chat).toMatchObject({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: "Plantão",
      ownerId: ana.id,
      owner: { id: ana.id, name: "Ana Souza" },
      lastMessage: "",
    });
    expect(unreadsOf(chat)).toEqual({ [ana.id]: 0, [bruno.id]: 0 });
    expect(chat.users.find((u) => u.userId === bruno.id)?.user).toMatchObject({
      id: bruno.id,
      name: "Bruno Lima",
    });
    // Users as clients of this API family send them (whole objects), the creator among them once.
    const again = expectOk<ChatDTO>(
      await createChat(ana, { title: "Objetos", users: [{ id: carla.id, name: "Carla" }, { id: ana.id }] }),
      201,
    );
    expect(again.users.map((u) => u.userId).sort()).toEqual([ana.id, carla.id].sort());
  });

  it("needs a title and at least one colleague of the same company", async () => {
    expect(fieldsOf(await createChat(ana, { title: "  ", users: [bruno.id] })).title).toBe("Required");
    expect(fieldsOf(await createChat(ana, { users: [bruno.id] }))).toHaveProperty("title");
    expectError(await createChat(ana, { title: "Só eu", users: [] }), 400, "ERR_CHAT_NO_USERS");
    expectError(await createChat(ana, { title: "Só eu", users: [ana.id] }), 400, "ERR_CHAT_NO_USERS");
    expectError(await createChat(ana, { title: "Fora", users: [stranger.id] }), 404, "ERR_NO_USER_FOUND");
    expect(expectOk<ChatsPage>(await call("GET", "/chats?searchParam=Fora", ana.login)).records).toEqual([]);
  });
});

describe("chats: who belongs", () => {
  it("lists a member's chats (newest activity first, searchable) and nobody else's", async () => {
    const first = await makeChat(bruno, "Lista um", [carla]);
    const second = await makeChat(bruno, "Lista dois", [carla]);
    await say(carla, first, "sobe");
    const page = expectOk<ChatsPage>(await call("GET", "/chats?searchParam=lista", carla.login));
    expect(page).toMatchObject({ count: 2, hasMore: false });
    expect(page.records.map((c) => c.id)).toEqual([first.id, second.id]);
    expect(expectOk<ChatsPage>(await call("GET", "/chats?searchParam=lista", ana.login)).count).toBe(0);
    expect(expectOk<ChatsPage>(await call("GET", "/chats?searchParam=lista", admin.login)).count).toBe(0);
  });

  it("opens a chat by id or uuid for members; anyone else, another company included, gets 404", async () => {
    const chat = await makeChat(ana, "Privado", [bruno]);
    expect(expectOk<ChatDTO>(await getChat(bruno, chat.uuid)).id).toBe(chat.id);
    expect(expectOk<ChatDTO>(await getChat(bruno, chat.id)).uuid).toBe(chat.uuid);
    for (const outsider of [carla, admin, stranger]) {
      expectError(await getChat(outsider, chat.id), 404, "ERR_NO_CHAT_FOUND");
      expectError(await getChat(outsider, chat.uuid), 404, "ERR_NO_CHAT_FOUND");
      expectError(await call("GET", `/chats/${chat.id}/messages`, outsider.login), 404, "ERR_NO_CHAT_FOUND");
      expectError(
        await call("POST", `/chats/${chat.id}/messages`, outsider.login, { message: "entrando" }),
        404,
        "ERR_NO_CHAT_FOUND",
      );
      expectError(await call("POST", `/chats/${chat.id}/read`, outsider.login, {}), 404, "ERR_NO_CHAT_FOUND");
      expectError(
        await call("PUT", `/chats/${chat.id}`, outsider.login, { title: "x" }),
        404,
        "ERR_NO_CHAT_FOUND",
      );
      expectError(await call("DELETE", `/chats/${chat.id}`, outsider.login), 404, "ERR_NO_CHAT_FOUND");
    }
    expect(expectOk<ChatMessagesPage>(await call("GET", `/chats/${chat.id}/messages`, ana.login)).count).toBe(
      0,
    );
  });
});

describe("chats: the owner", () => {
  it("only the owner renames, changes members or deletes; a removed member loses the chat", async () => {
    const chat = await makeChat(ana, "Equipe", [bruno, carla]);
    expectError(
      await call("PUT", `/chats/${chat.id}`, bruno.login, { title: "Meu" }),
      403,
      "ERR_CHAT_OWNER_ONLY",
    );
    expectError(await call("DELETE", `/chats/${chat.id}`, bruno.login), 403, "ERR_CHAT_OWNER_ONLY");

    const renamed = expectOk<ChatDTO>(
      await call("PUT", `/chats/${chat.uuid}`, ana.login, { title: "Equipe A", users: [{ id: bruno.id }] }),
    );
    expect(renamed.title).toBe("Equipe A");
    // The owner always stays a member, even when left out of the list.
    expect(renamed.users.map((u) => u.userId).sort()).toEqual([ana.id, bruno.id].sort());
    expectError(await getChat(carla, chat.id), 404, "ERR_NO_CHAT_FOUND");
    expectError(await call("PUT", `/chats/${chat.id}`, ana.login, { users: [] }), 400, "ERR_CHAT_NO_USERS");

    expect(expectOk<{ message: string }>(await call("DELETE", `/chats/${chat.id}`, ana.login))).toEqual({
      message: "Chat deleted",
    });
    expectError(await getChat(ana, chat.id), 404, "ERR_NO_CHAT_FOUND");
  });
});

describe("chats: messages and unread counts", () => {
  it("counts a message unread for the others, zero for its sender; reading clears only the reader's", async () => {
    const chat = await makeChat(ana, "Contagem", [bruno, carla]);
    const sent = await say(ana, chat, "Bom dia\nequipe");
    expect(sent).toMatchObject({
      chatId: chat.id,
      message: "Bom dia\nequipe",
      senderId: ana.id,
      sender: { id: ana.id, name: "Ana Souza" },
      mediaPath: null,
      ticket: null,
    });
    await say(ana, chat, "segunda");
    let now = expectOk<ChatDTO>(await getChat(bruno, chat.id));
    expect(unreadsOf(now)).toEqual({ [ana.id]: 0, [bruno.id]: 2, [carla.id]: 2 });
    expect(now.lastMessage).toBe("Ana Souza: segunda");

    // Whatever userId the client sends, the caller is who has read it.
    now = expectOk<ChatDTO>(await call("POST", `/chats/${chat.id}/read`, bruno.login, { userId: carla.id }));
    expect(unreadsOf(now)).toEqual({ [ana.id]: 0, [bruno.id]: 0, [carla.id]: 2 });
    // Replying reads the chat for the one who replies.
    await say(carla, chat, "oi");
    expect(unreadsOf(expectOk<ChatDTO>(await getChat(ana, chat.id)))).toEqual({
      [ana.id]: 1,
      [bruno.id]: 1,
      [carla.id]: 0,
    });
    const listed = expectOk<ChatsPage>(await call("GET", "/chats?searchParam=Contagem", ana.login))
      .records[0]!;
    expect(unreadsOf(listed)[ana.id]).toBe(1);
  });

  it("refuses an empty message and pages messages from the newest, each page oldest first", async () => {
    const chat = await makeChat(ana, "Histórico", [bruno]);
    expectError(
      await call("POST", `/chats/${chat.id}/messages`, ana.login, { message: "  \n " }),
      400,
      "ERR_EMPTY_MESSAGE",
    );
    expectError(await call("POST", `/chats/${chat.id}/messages`, ana.login, {}), 400, "ERR_EMPTY_MESSAGE");
    for (let i = 1; i <= 25; i++) await say(i % 2 ? ana : bruno, chat, `m${i}`);
    const first = expectOk<ChatMessagesPage>(await call("GET", `/chats/${chat.id}/messages`, bruno.login));
    expect(first).toMatchObject({ count: 25, hasMore: true });
    expect(first.records.map((m) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 6}`));
    const second = expectOk<ChatMessagesPage>(
      await call("GET", `/chats/${chat.id}/messages?pageNumber=2`, bruno.login),
    );
    expect(second).toMatchObject({ count: 25, hasMore: false });
    expect(second.records.map((m) => m.message)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
  });

  it("carries attachments under the chat window's media rules, readable by members only", async () => {
    const chat = await makeChat(ana, "Arquivos", [bruno]);
    const form = mediaForm(TINY_PNG, "foto da tela.png", "image/png", "olha");
    const res = await ctx.app.inject({
      method: "POST",
      url: `/chats/${chat.id}/messages`,
      payload: form.payload,
      headers: { ...ana.login.auth, ...form.headers },
    });
    const sent = expectOk<ChatMessageDTO>(res, 201);
    expect(sent).toMatchObject({ message: "olha", mediaName: "foto_da_tela.png", mediaType: "image/png" });
    expect(sent.mediaPath).toMatch(new RegExp(`^${companyId}/[0-9a-f-]{36}\\.png$`));
    expect(expectOk<ChatDTO>(await getChat(bruno, chat.id)).lastMessage).toBe("Ana Souza: olha");
    expect((await call("GET", `/media/${sent.mediaPath}`, bruno.login)).statusCode).toBe(200);
    // Not a member: the file does not exist for them, an admin included.
    expectError(await call("GET", `/media/${sent.mediaPath}`, carla.login), 404, "ERR_NOT_FOUND");
    expectError(await call("GET", `/media/${sent.mediaPath}`, admin.login), 404, "ERR_NOT_FOUND");
    // A file alone is previewed by its name.
    const alone = mediaForm(Buffer.from("%PDF-1.4\n%%EOF\n"), "relatório.pdf", "application/pdf");
    const file = expectOk<ChatMessageDTO>(
      await ctx.app.inject({
        method: "POST",
        url: `/chats/${chat.id}/messages`,
        payload: alone.payload,
        headers: { ...ana.login.auth, ...alone.headers },
      }),
      201,
    );
    expect(file).toMatchObject({ message: "", mediaName: "relatório.pdf", mediaType: "application/pdf" });
    expect(expectOk<ChatDTO>(await getChat(bruno, chat.id)).lastMessage).toBe("Ana Souza: 📎 relatório.pdf");
  });

  it("links a ticket of the company by its uuid; another company's is not found", async () => {
    const chat = await makeChat(ana, "Tickets", [bruno]);
    const ticket = await buildTicket(ctx.deps.db, companyId, { queueId: queueA });
    const sent = expectOk<ChatMessageDTO>(
      await call("POST", `/chats/${chat.id}/messages`, ana.login, {
        message: "veja",
        ticketUuid: ticket.uuid,
      }),
      201,
    );
    expect(sent.ticket).toEqual({ id: ticket.id, uuid: ticket.uuid });
    const foreign = await buildTicket(ctx.deps.db, stranger.companyId);
    expectError(
      await call("POST", `/chats/${chat.id}/messages`, ana.login, { message: "x", ticketUuid: foreign.uuid }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
  });
});

describe("chats: the plan", () => {
  it("answers ERR_PLAN_FEATURE_DISABLED on a plan without useInternalChat", async () => {
    const plan = await buildPlan(ctx.deps.db, { useInternalChat: false });
    const other = await buildCompany(ctx.deps.db, { planId: plan.id });
    const a1 = await buildMember(ctx, other.id);
    const a2 = await buildMember(ctx, other.id);
    expectError(await call("GET", "/chats", a1.login), 403, "ERR_PLAN_FEATURE_DISABLED");
    expectError(await createChat(a1, { title: "x", users: [a2.id] }), 403, "ERR_PLAN_FEATURE_DISABLED");
  });
});

describe("chats: the live channel", () => {
  it("reaches the chat's members only, and tells a removed member the chat is gone", async () => {
    const url = await ctx.url();
    const event = `company-${companyId}-chat`;
    const [sA, sB, sC, sAdmin] = await Promise.all(
      [ana, bruno, carla, admin].map((m) => connectSocket(url, m.login.token)),
    );
    const sX = await connectSocket(url, stranger.login.token);
    sockets.push(sA!, sB!, sC!, sAdmin!, sX);
    const heardB = record<CompanyEventPayloads["chat"]>(sB!, event);
    const heardC = record<CompanyEventPayloads["chat"]>(sC!, event);
    const unheard = record<CompanyEventPayloads["chat"]>(sAdmin!, event);
    const strangerHeard: string[] = [];
    sX.onAny((name: string) => strangerHeard.push(name));

    const chat = await makeChat(ana, "Ao vivo", [bruno, carla]);
    await waitFor(() => heardB.length === 1 && heardC.length === 1);
    expect(heardB[0]).toEqual({ action: "create", chat });

    const sent = await say(ana, chat, "chegou?");
    await waitFor(() => heardB.length === 2);
    expect(heardB[1]).toMatchObject({ action: "new-message", newMessage: sent, chat: { id: chat.id } });
    const after = (heardB[1] as { chat: ChatDTO }).chat;
    expect(unreadsOf(after)[bruno.id]).toBe(1);

    await call("POST", `/chats/${chat.id}/read`, bruno.login, {});
    await waitFor(() => heardB.length === 3);
    expect(heardB[2]).toMatchObject({ action: "update", chat: { id: chat.id } });

    await waitFor(() => heardC.length === 3);
    expectOk(await call("PUT", `/chats/${chat.id}`, ana.login, { users: [bruno.id] }));
    await waitFor(() => heardC.length === 4);
    expect(heardC[3]).toEqual({ action: "delete", id: chat.id, uuid: chat.uuid });
    await say(ana, chat, "só nós");
    await waitFor(() => heardB.length === 5);
    await Promise.all([sC!, sAdmin!, sX].map(caughtUp));
    expect(heardC).toHaveLength(4);
    expect(unheard).toEqual([]);
    expect(strangerHeard.filter((name) => name.includes("chat"))).toEqual([]);
  });
});

describe("chats: mentions in ticket notes", () => {
  it("brings the note to a mentioned colleague who may see the ticket, in their direct chat, linking it", async () => {
    const ticket = await buildTicket(ctx.deps.db, companyId, { queueId: queueA, status: "open" });
    const note = (text: string) =>
      call("POST", "/ticket-notes", ana.login, { ticketId: ticket.id, note: text });
    expectOk(await note("@bruno pode ver este cliente? @Carla também"), 201);
    let direct: ChatDTO | undefined;
    await waitFor(async () => {
      const page = expectOk<ChatsPage>(await call("GET", "/chats", bruno.login));
      direct = page.records.find(
        (c) => c.users.length === 2 && c.users.some((u) => u.userId === ana.id) && c.title.includes("&"),
      );
      return !!direct && unreadsOf(direct)[bruno.id] === 1;
    });
    const messages = expectOk<ChatMessagesPage>(
      await call("GET", `/chats/${direct!.id}/messages`, bruno.login),
    );
    expect(messages.records.at(-1)).toMatchObject({
      message: "@bruno pode ver este cliente? @Carla também",
      senderId: ana.id,
      ticket: { id: ticket.id, uuid: ticket.uuid },
    });
    // Carla works another queue: she may not see the ticket, so she is told nothing.
    const carlas = expectOk<ChatsPage>(await call("GET", "/chats", carla.login)).records;
    expect(carlas.some((c) => c.title === "Ana Souza & Carla Dias")).toBe(false);

    // A second mention goes to the same direct chat.
    expectOk(await note("@Bruno Lima de novo"), 201);
    await waitFor(async () => unreadsOf(expectOk<ChatDTO>(await getChat(bruno, direct!.id)))[bruno.id] === 2);
    const page = expectOk<ChatsPage>(await call("GET", "/chats", bruno.login));
    expect(page.records.filter((c) => c.title === direct!.title)).toHaveLength(1);
  });
});
