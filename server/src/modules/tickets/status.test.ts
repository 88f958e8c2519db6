import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { messages, settings, tickets } from "../../db/schema/index.js";
import { buildConnection } from "../../test/factories.js";
import { waitFor } from "../../test/harness.js";
import { expectError } from "../../test/calls.js";
import {
  setupTicketsSuite,
  ctx,
  a,
  queueA,
  queueB,
  agentA,
  agentA2,
  agentB,
  b,
  getTicket,
  updateTicket,
  ticketOk,
  list,
  rowOf,
  customerWrites,
  pendingIn,
  openFor,
  phone,
} from "./testing.js";

/**
 * The spec's status table (PUT /tickets/{id}): accept, resolve, return, reopen and transfer, and what
 * follows a resolve.
 */
setupTicketsSuite();

describe("PUT /tickets/{id}: the status table", () => {
  it("accept: pending → open, held by the caller, queue kept; the tab counts move with it", async () => {
    const ticket = await pendingIn(queueA.id);
    const before = {
      pending: (await list(agentA.login, { status: "pending" })).count,
      open: (await list(agentA.login, { status: "open" })).count,
    };
    const accepted = ticketOk(
      await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }),
    );
    expect(accepted).toMatchObject({
      id: ticket.id,
      status: "open",
      userId: agentA.id,
      user: { id: agentA.id, name: "Ana Atendente" },
      queueId: queueA.id,
    });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: agentA.id, queueId: queueA.id });
    expect((await list(agentA.login, { status: "pending" })).count).toBe(before.pending - 1);
    expect((await list(agentA.login, { status: "open" })).count).toBe(before.open + 1);
    // The greeting setting is off by default: no message went out.
    const sent = await ctx.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(sent).toEqual([]);

    // An agent cannot take over another agent's ticket in service by accepting it again.
    expectError(
      await updateTicket(agentA2.login, ticket.id, { status: "open", userId: agentA2.id }),
      403,
      "ERR_NO_PERMISSION",
    );
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: agentA.id });
  });

  it("two agents accepting the same ticket at once: one gets it, the other 403 ERR_NO_PERMISSION", async () => {
    const ticket = await pendingIn(queueA.id);
    const [first, second] = await Promise.all([
      updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }),
      updateTicket(agentA2.login, ticket.id, { status: "open", userId: agentA2.id }),
    ]);
    const answers = [first, second].map((r) => r.statusCode);
    expect(answers.sort(), `${first.body}\n${second.body}`).toEqual([200, 403]);
    const winner = first.statusCode === 200 ? agentA : agentA2;
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: winner.id });
    expectError(first.statusCode === 200 ? second : first, 403, "ERR_NO_PERMISSION");
  });

  it("accept with sendGreetingAccepted enabled queues an automatic greeting that reaches the customer's phone", async () => {
    const ticket = await customerWrites("oi, tudo bem?", { name: "Gabriela Lima" });
    await ctx.deps.db.update(tickets).set({ queueId: queueA.id }).where(eq(tickets.id, ticket.id));
    const setting = and(eq(settings.companyId, a.company.id), eq(settings.key, "sendGreetingAccepted"));
    await ctx.deps.db.update(settings).set({ value: "enabled" }).where(setting);
    try {
      const accepted = ticketOk(
        await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }),
      );
      expect(accepted).toMatchObject({ status: "open", userId: agentA.id });
    } finally {
      await ctx.deps.db.update(settings).set({ value: "disabled" }).where(setting);
    }
    const greeting =
      "*Mensagem automática:*\nOlá Gabriela Lima, meu nome é Ana Atendente e vou continuar o seu atendimento.";
    const stored = await ctx.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(stored).toEqual([expect.objectContaining({ body: greeting, isBot: true, userId: agentA.id })]);
    await waitFor(async () => (await phone(ticket.number)).some((m) => m.direction === "out"), 10_000);
    expect((await phone(ticket.number)).map((m) => [m.direction, m.body])).toEqual([
      ["in", "oi, tudo bem?"],
      ["out", greeting],
    ]);
  });

  it("resolve: open or pending → closed, user and queue kept", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    const closed = ticketOk(await updateTicket(agentA.login, ticket.id, { status: "closed" }));
    expect(closed).toMatchObject({ status: "closed", userId: agentA.id, queueId: queueA.id });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "closed", userId: agentA.id, queueId: queueA.id });

    const waiting = await pendingIn(queueB.id);
    expect(ticketOk(await updateTicket(agentB.login, waiting.id, { status: "closed" }))).toMatchObject({
      status: "closed",
      userId: null,
      queueId: queueB.id,
    });
  });

  it("resolve as the ticket header of clients of this API family sends it: false for promptId, integrationId and useIntegration", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    await ctx.deps.db
      .update(tickets)
      .set({ useIntegration: true, promptId: 7, integrationId: 9 })
      .where(eq(tickets.id, ticket.id));
    const closed = ticketOk(
      await updateTicket(agentA.login, ticket.id, {
        status: "closed",
        userId: agentA.id,
        useIntegration: false,
        promptId: false,
        integrationId: false,
      }),
    );
    expect(closed).toMatchObject({ status: "closed", userId: agentA.id });
    expect(await rowOf(ticket.id)).toMatchObject({
      status: "closed",
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });
    // Anything else than an id, null or false is still refused.
    expectError(await updateTicket(agentA.login, ticket.id, { promptId: true }), 400, "ERR_VALIDATION");
    expectError(await updateTicket(agentA.login, ticket.id, { integrationId: "x" }), 400, "ERR_VALIDATION");
  });

  it("return: open → pending, user cleared, queue kept", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    const returned = ticketOk(
      await updateTicket(agentA.login, ticket.id, { status: "pending", userId: null }),
    );
    expect(returned).toMatchObject({ status: "pending", userId: null, user: null, queueId: queueA.id });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "pending", userId: null, queueId: queueA.id });
  });

  it("reopen: closed → open for the caller", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    await ctx.deps.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, ticket.id));
    const reopened = ticketOk(await updateTicket(agentA2.login, ticket.id, { status: "open" }));
    expect(reopened).toMatchObject({
      status: "open",
      userId: agentA2.id,
      user: { id: agentA2.id, name: "Aldo Atendente" },
      queueId: queueA.id,
    });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: agentA2.id });
  });

  it("transfer to a queue with no user: pending, user cleared; with a user: open for that user", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    const toQueue = ticketOk(await updateTicket(agentA.login, ticket.id, { queueId: queueB.id }));
    expect(toQueue).toMatchObject({
      status: "pending",
      userId: null,
      user: null,
      queueId: queueB.id,
      queue: { id: queueB.id, name: queueB.name },
    });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "pending", userId: null, queueId: queueB.id });
    // Agent A no longer sees it; agent B does.
    expectError(await getTicket(agentA.login, ticket.id), 403, "ERR_TICKET_ACCESS_DENIED");
    expect(ticketOk(await getTicket(agentB.login, ticket.id)).queueId).toBe(queueB.id);

    const toUser = ticketOk(
      await updateTicket(a.adminLogin, ticket.id, { queueId: queueA.id, userId: agentA2.id }),
    );
    expect(toUser).toMatchObject({
      status: "open",
      userId: agentA2.id,
      user: { id: agentA2.id, name: "Aldo Atendente" },
      queueId: queueA.id,
    });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: agentA2.id, queueId: queueA.id });
  });

  it("transfer may change the connection", async () => {
    const second = await buildConnection(ctx.deps.db, a.company.id, {
      name: "Segundo número",
      provider: "simulator",
      status: "DISCONNECTED",
    });
    const ticket = await openFor(agentA.id, queueA.id);
    const moved = ticketOk(
      await updateTicket(a.adminLogin, ticket.id, {
        whatsappId: second.id,
        queueId: queueA.id,
        userId: agentA.id,
      }),
    );
    expect(moved).toMatchObject({
      status: "open",
      userId: agentA.id,
      queueId: queueA.id,
      whatsappId: second.id,
      whatsapp: { id: second.id, name: "Segundo número" },
    });
    expect((await rowOf(ticket.id))!.whatsappId).toBe(second.id);
  });

  it("a user, queue or connection that is not the company's answers 404 and changes nothing", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    const cases: [unknown, number, string][] = [
      [{ queueId: queueB.id, userId: b.user.id }, 404, "ERR_NO_USER_FOUND"],
      [{ userId: 2_147_483_647 }, 404, "ERR_NO_USER_FOUND"],
      [{ status: "open", userId: b.user.id }, 404, "ERR_NO_USER_FOUND"],
      [{ queueId: b.queueId }, 404, "ERR_NO_QUEUE_FOUND"],
      [{ queueId: 2_147_483_647 }, 404, "ERR_NO_QUEUE_FOUND"],
      [{ whatsappId: 2_147_483_647 }, 404, "ERR_NO_WAPP_FOUND"],
      [{ status: "archived" }, 400, "ERR_VALIDATION"],
      [{ queueId: "fila" }, 400, "ERR_VALIDATION"],
      [{ userId: 0 }, 400, "ERR_VALIDATION"],
    ];
    const before = await rowOf(ticket.id);
    for (const [body, status, error] of cases) {
      expectError(await updateTicket(a.adminLogin, ticket.id, body), status, error);
    }
    expect(await rowOf(ticket.id)).toEqual(before);
    expectError(
      await updateTicket(a.adminLogin, 2_147_483_647, { status: "closed" }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
  });

  it("an agent outside the ticket's queue gets 403 ERR_TICKET_ACCESS_DENIED for every action", async () => {
    const ticket = await pendingIn(queueA.id);
    const before = await rowOf(ticket.id);
    for (const body of [
      { status: "open", userId: agentB.id },
      { status: "closed" },
      { status: "pending", userId: null },
      { queueId: queueB.id },
      { queueId: queueB.id, userId: agentB.id },
    ]) {
      expectError(await updateTicket(agentB.login, ticket.id, body), 403, "ERR_TICKET_ACCESS_DENIED");
    }
    expect(await rowOf(ticket.id)).toEqual(before);
  });
});

describe("after resolving", () => {
  it("a new customer message opens a NEW pending ticket; the resolved one stays closed", async () => {
    const first = await customerWrites("meu pedido chegou?");
    await ctx.deps.db.update(tickets).set({ queueId: queueA.id }).where(eq(tickets.id, first.id));
    ticketOk(await updateTicket(agentA.login, first.id, { status: "open", userId: agentA.id }));
    ticketOk(await updateTicket(agentA.login, first.id, { status: "closed" }));

    const second = await customerWrites("outra dúvida", { number: first.number });
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({
      status: "pending",
      userId: null,
      queueId: null,
      unreadMessages: 1,
      lastMessage: "outra dúvida",
      contactId: first.contactId,
    });
    expect(await rowOf(first.id)).toMatchObject({
      status: "closed",
      userId: agentA.id,
      lastMessage: "meu pedido chegou?",
    });
    const stored = await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, second.id));
    expect(stored.map((m) => m.body)).toEqual(["outra dúvida"]);

    // Reopening the old one while the new one is live would make two: refused, naming the live one.
    const reopen = await updateTicket(agentA.login, first.id, { status: "open" });
    expectError(reopen, 409, "ERR_OTHER_OPEN_TICKET");
    expect(reopen.json().ticketId).toBe(second.id);
    expect((await rowOf(first.id))!.status).toBe("closed");
  });
});
