import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type MessageDTO } from "@atende/contracts";
import { tickets } from "../../db/schema/index.js";
import { newNumber } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import {
  setupMessagesSuite,
  ctx,
  team,
  ana,
  beto,
  caio,
  stranger,
  PNG,
  call,
  phoneSays,
  ticketOf,
  openConversation,
  page,
  sendText,
  postForm,
} from "./testing.js";

/**
 * Reading a conversation (GET /messages/{ticketId}): pages, who may read it, the contact's earlier tickets,
 * and who may fetch its media.
 */
setupMessagesSuite();

describe("GET /messages/{ticketId}", () => {
  it("pages by 20, newest page first and oldest first inside a page, with hasMore and count", async () => {
    const number = newNumber();
    for (let i = 1; i <= 25; i++) await phoneSays(number, { body: `m${i}` });
    const ticket = (await ticketOf(number))!;

    const first = await page(ticket.id);
    expect(first.messages.map((m) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 6}`));
    expect(first).toMatchObject({ count: 25, hasMore: true, ticket: { id: ticket.id, status: "pending" } });
    expect(first.messages[0]).toMatchObject({
      ticketId: ticket.id,
      contactId: ticket.contactId,
      fromMe: false,
      mediaType: "chat",
      mediaUrl: null,
      isDeleted: false,
      quotedMsg: null,
      reactions: [],
    });

    const second = await page(ticket.id, team.adminLogin, 2);
    expect(second.messages.map((m) => m.body)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    expect(second).toMatchObject({ count: 25, hasMore: false });
    expect(await page(ticket.id, team.adminLogin, 3)).toMatchObject({ messages: [], hasMore: false });

    expectError(
      await call("GET", `/messages/${ticket.id}?pageNumber=0`, team.adminLogin),
      400,
      "ERR_VALIDATION",
    );
    expectError(await call("GET", `/messages/abc`, team.adminLogin), 400, "ERR_VALIDATION");
  });

  it("another company answers 404, an agent outside the ticket's queue 403 ERR_TICKET_ACCESS_DENIED, no session 401", async () => {
    const { ticketId } = await openConversation({ first: "dados sigilosos" });
    const notFound = await call("GET", `/messages/${ticketId}`, stranger);
    expectError(notFound, 404, "ERR_NO_TICKET_FOUND");
    expect(notFound.body).not.toContain("sigilosos");
    const denied = await call("GET", `/messages/${ticketId}`, caio.login);
    expectError(denied, 403, "ERR_TICKET_ACCESS_DENIED");
    expect(denied.json().message).toBe("Acesso não permitido");
    expect((await call("GET", `/messages/${ticketId}`, null)).statusCode).toBe(401);
    // The queue's agents and the admin see it.
    expect((await page(ticketId, beto.login)).messages.map((m) => m.body)).toEqual(["dados sigilosos"]);
    expect((await page(ticketId, ana.login)).messages.map((m) => m.body)).toEqual(["dados sigilosos"]);
  });
});

describe("what an agent may read follows the queues: history and media", () => {
  it("the history shows the contact's earlier tickets only where the viewer may see them; admins see all", async () => {
    // An earlier conversation in queue 1 (Ana's), resolved; the customer writes again, the admin
    // gives the new ticket to Caio in queue 2.
    const { number, ticketId: earlier } = await openConversation({ first: "segredo do suporte" });
    await sendText(earlier, ana.login, { body: "resposta do suporte" });
    expect((await call("PUT", `/tickets/${earlier}`, team.adminLogin, { status: "closed" })).statusCode).toBe(
      200,
    );
    await phoneSays(number, { body: "agora é sobre vendas" });
    const [later] = await ctx.deps.db
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, team.company.id),
          eq(tickets.status, "pending"),
          eq(tickets.contactId, (await ticketOf(number))!.contactId),
        ),
      );
    const given = await call("PUT", `/tickets/${later!.id}`, team.adminLogin, {
      status: "open",
      userId: caio.id,
      queueId: team.queues[1]!.id,
    });
    expect(given.statusCode, given.body).toBe(200);

    const caioSees = await page(later!.id, caio.login);
    expect(caioSees.messages.map((m) => m.body)).toEqual(["agora é sobre vendas"]);
    expect(caioSees).toMatchObject({ count: 1, hasMore: false });
    expect(JSON.stringify(caioSees)).not.toContain("segredo");
    const adminSees = await page(later!.id, team.adminLogin);
    expect(adminSees.messages.map((m) => m.body)).toEqual([
      "segredo do suporte",
      "resposta do suporte",
      "agora é sobre vendas",
    ]);
    expect(adminSees.count).toBe(3);
    // Ana held the earlier ticket: opening it, she still sees her conversation.
    expect((await page(earlier, ana.login)).messages.map((m) => m.body)).toContain("segredo do suporte");
  });

  it("a long conversation pages the same for an agent: only the tickets they may read, hasMore false on their last page", async () => {
    // Three messages in an earlier ticket of queue 1 (Ana's, resolved), then 40 in the contact's new
    // ticket, Caio's in queue 2: Caio reads two full pages and nothing more, the admin a third.
    const { number, ticketId: earlier, contactId } = await openConversation({ first: "segredo 1" });
    await sendText(earlier, ana.login, { body: "segredo 2" });
    await sendText(earlier, ana.login, { body: "segredo 3" });
    expect((await call("PUT", `/tickets/${earlier}`, team.adminLogin, { status: "closed" })).statusCode).toBe(
      200,
    );
    await phoneSays(number, { body: "vendas 1" });
    const [later] = await ctx.deps.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.contactId, contactId), eq(tickets.status, "pending")));
    const given = await call("PUT", `/tickets/${later!.id}`, team.adminLogin, {
      status: "open",
      userId: caio.id,
      queueId: team.queues[1]!.id,
    });
    expect(given.statusCode, given.body).toBe(200);
    for (let i = 2; i <= 40; i++) await phoneSays(number, { body: `vendas ${i}` });
    const vendas = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `vendas ${from + i}`);
    const bodies = (p: { messages: MessageDTO[] }) => p.messages.map((m) => m.body);

    const caio1 = await page(later!.id, caio.login, 1);
    expect(bodies(caio1)).toEqual(vendas(21, 40));
    expect(caio1).toMatchObject({ count: 40, hasMore: true });
    const caio2 = await page(later!.id, caio.login, 2);
    expect(bodies(caio2)).toEqual(vendas(1, 20));
    // The last page Caio may read, though older messages of the conversation exist.
    expect(caio2).toMatchObject({ count: 40, hasMore: false });
    expect(await page(later!.id, caio.login, 3)).toMatchObject({ messages: [], count: 40, hasMore: false });
    for (const p of [caio1, caio2]) {
      expect(JSON.stringify(p)).not.toContain("segredo");
      expect(p.messages.every((m) => m.ticketId === later!.id)).toBe(true);
    }

    const admin1 = await page(later!.id, team.adminLogin, 1);
    expect(bodies(admin1)).toEqual(vendas(21, 40));
    expect(admin1).toMatchObject({ count: 43, hasMore: true });
    const admin2 = await page(later!.id, team.adminLogin, 2);
    expect(bodies(admin2)).toEqual(vendas(1, 20));
    // A later page is not counted whole: its count is the messages through it.
    expect(admin2).toMatchObject({ count: 40, hasMore: true });
    const admin3 = await page(later!.id, team.adminLogin, 3);
    expect(bodies(admin3)).toEqual(["segredo 1", "segredo 2", "segredo 3"]);
    expect(admin3).toMatchObject({ count: 43, hasMore: false });
  });

  it("GET /media/... answers only to who may see a ticket the file belongs to; a file of no ticket, to the company", async () => {
    const { ticketId } = await openConversation();
    const sent = await postForm(ticketId, ana.login, [
      { name: "medias", filename: "laudo.png", type: "image/png", data: PNG },
    ]);
    expect(sent.statusCode, sent.body).toBe(201);
    const answer = sent.json<MessageDTO | MessageDTO[]>();
    const url = (Array.isArray(answer) ? answer[0]! : answer).mediaUrl!;
    for (const who of [ana.login, beto.login, team.adminLogin]) {
      const res = await call("GET", url, who);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
    }
    const refused = await call("GET", url, caio.login);
    expectError(refused, 404, "ERR_NOT_FOUND");
    expect(refused.rawPayload.equals(PNG)).toBe(false);

    // Handed to queue 2: Caio may now see the ticket, so its file; Ana and Beto no longer.
    const moved = await call("PUT", `/tickets/${ticketId}`, team.adminLogin, {
      userId: caio.id,
      queueId: team.queues[1]!.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await call("GET", url, caio.login)).statusCode).toBe(200);
    expectError(await call("GET", url, beto.login), 404, "ERR_NOT_FOUND");

    // A file that belongs to no ticket (as a quick message's) is the company's.
    const loose = await ctx.deps.media.save(team.company.id, PNG, "image/png");
    expect((await call("GET", `/media/${loose.path}`, caio.login)).statusCode).toBe(200);
    expectError(await call("GET", `/media/${loose.path}`, stranger), 404, "ERR_NOT_FOUND");
  });
});
