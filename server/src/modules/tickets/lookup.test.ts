import crypto from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { messages, tickets } from "../../db/schema/index.js";

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
  agentAll,
  call,
  getTicket,
  getByUuid,
  updateTicket,
  ticketOk,
  rowOf,
  customerWrites,
  pendingIn,
  openFor,
} from "./testing.js";

/**
 * One ticket by id or uuid (GET /tickets/{id}, /tickets/u/{uuid}): who may open it, 404 and 400 for unknown
 * and malformed ids, and reading it clears the unread count.
 */
setupTicketsSuite();

describe("GET /tickets/{id} and /tickets/u/{uuid}", () => {
  it("a non-admin outside the ticket's queue gets 403 ERR_TICKET_ACCESS_DENIED ('Acesso não permitido')", async () => {
    const ticket = await pendingIn(queueA.id);
    for (const res of [
      await getTicket(agentB.login, ticket.id),
      await getByUuid(agentB.login, ticket.uuid),
    ]) {
      expectError(res, 403, "ERR_TICKET_ACCESS_DENIED");
      expect(res.json().message).toBe("Acesso não permitido");
      expect(res.body).not.toContain(ticket.number);
    }
    const en = await call("GET", `/tickets/${ticket.id}`, agentB.login, undefined, {
      "accept-language": "en-US,en;q=0.9",
    });
    expect(en.json()).toMatchObject({ error: "ERR_TICKET_ACCESS_DENIED", message: "Access not allowed" });
    // Without allTicket, a ticket with no queue is out of reach too; with it, in reach.
    const unqueued = await pendingIn(null);
    expectError(await getTicket(agentA.login, unqueued.id), 403, "ERR_TICKET_ACCESS_DENIED");
    expect(ticketOk(await getTicket(agentAll.login, unqueued.id)).id).toBe(unqueued.id);
    // The queue's own agents open it.
    expect(ticketOk(await getTicket(agentA2.login, ticket.id))).toMatchObject({
      id: ticket.id,
      queueId: queueA.id,
    });
  });

  it("an admin opens any ticket of the company, by id or by uuid, with the same answer", async () => {
    const ticket = await openFor(agentB.id, queueB.id, "me ajuda");
    const byId = ticketOk(await getTicket(a.adminLogin, ticket.id));
    const byUuid = ticketOk(await getByUuid(a.adminLogin, ticket.uuid));
    expect(byUuid).toEqual(byId);
    expect(byId).toMatchObject({
      id: ticket.id,
      uuid: ticket.uuid,
      status: "open",
      user: { id: agentB.id, name: "Bia Atendente" },
      queue: { id: queueB.id, name: queueB.name },
      lastMessage: "me ajuda",
    });
    // The admin's look does not read the agent's messages for them.
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(1);
  });

  it("unknown ids and uuids answer 404; malformed ids and uuids 400", async () => {
    expectError(await getTicket(a.adminLogin, 2_147_483_647), 404, "ERR_NO_TICKET_FOUND");
    expectError(await getByUuid(a.adminLogin, crypto.randomUUID()), 404, "ERR_NO_TICKET_FOUND");
    for (const uuid of ["not-a-uuid", "-".repeat(36), "g".repeat(36)]) {
      expectError(await getByUuid(a.adminLogin, uuid), 400, "ERR_VALIDATION");
    }
    for (const id of ["abc", "0", "-3", "1.5", "99999999999"]) {
      expectError(await getTicket(a.adminLogin, id), 400, "ERR_VALIDATION");
    }
  });

  it("opening it as the assigned agent resets unreadMessages to 0 and marks the customer's messages read", async () => {
    const ticket = await customerWrites("primeira");
    await ctx.deps.db.update(tickets).set({ queueId: queueA.id }).where(eq(tickets.id, ticket.id));
    ticketOk(await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }));
    await customerWrites("segunda", { number: ticket.number });
    await customerWrites("terceira", { number: ticket.number });
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(3);

    // Someone else looking does not count as reading.
    expect(ticketOk(await getTicket(a.adminLogin, ticket.id)).unreadMessages).toBe(3);
    expect(ticketOk(await getTicket(agentA2.login, ticket.id)).unreadMessages).toBe(3);
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(3);

    expect(ticketOk(await getTicket(agentA.login, ticket.id)).unreadMessages).toBe(0);
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(0);
    const unreadLeft = await ctx.deps.db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, false), eq(messages.read, false)));
    expect(unreadLeft[0]!.n).toBe(0);

    // By uuid too.
    await customerWrites("quarta", { number: ticket.number });
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(1);
    expect(ticketOk(await getByUuid(agentA.login, ticket.uuid)).unreadMessages).toBe(0);
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(0);
  });
});
