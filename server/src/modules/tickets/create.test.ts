import { describe, expect, it } from "vitest";
import { type TicketDTO } from "@atende/contracts";

import { failInserts } from "../../test/dbFailures.js";
import { type LoggedIn } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import {
  setupTicketsSuite,
  a,
  queueA,
  queueB,
  agentA,
  agentA2,
  b,
  getTicket,
  createTicket,
  ticketOk,
  rowOf,
  quietContact,
  ticketsOfContact,
  ctx,
} from "./testing.js";

/**
 * Opening a ticket for a contact (POST /tickets): open for the caller on the chosen or default connection,
 * one live ticket per contact, bad input refused.
 */
setupTicketsSuite();

describe("POST /tickets", () => {
  it("creates the ticket open for the caller, on the chosen or default connection", async () => {
    const contact = await quietContact("Paulo Novo");
    const created = ticketOk(
      await createTicket(agentA.login, {
        contactId: contact.id,
        queueId: queueA.id,
        whatsappId: a.connection.id,
      }),
      201,
    );
    expect(created).toMatchObject({
      status: "open",
      contactId: contact.id,
      contact: { id: contact.id, name: "Paulo Novo", number: contact.number },
      userId: agentA.id,
      user: { id: agentA.id, name: "Ana Atendente" },
      queueId: queueA.id,
      whatsappId: a.connection.id,
      unreadMessages: 0,
    });
    expect(await rowOf(created.id)).toMatchObject({
      status: "open",
      userId: agentA.id,
      companyId: a.company.id,
    });
    expect(ticketOk(await getTicket(agentA.login, created.id)).id).toBe(created.id);

    // An admin may leave the queue out; the company's default connection is used.
    const other = await quietContact();
    const byAdmin = ticketOk(await createTicket(a.adminLogin, { contactId: other.id }), 201);
    expect(byAdmin).toMatchObject({
      status: "open",
      userId: a.admin.id,
      queueId: null,
      whatsappId: a.connection.id,
    });
  });

  it("when another user holds the contact's ticket: 409 ERR_OTHER_OPEN_TICKET naming that user and queue", async () => {
    const contact = await quietContact();
    const held = ticketOk(
      await createTicket(agentA.login, { contactId: contact.id, queueId: queueA.id }),
      201,
    );
    for (const who of [agentA2.login, a.adminLogin]) {
      const res = await createTicket(who, { contactId: contact.id, queueId: queueA.id });
      expectError(res, 409, "ERR_OTHER_OPEN_TICKET");
      expect(res.json()).toMatchObject({
        ticketId: held.id,
        userName: "Ana Atendente",
        queueName: queueA.name,
        message: "Já existe um tíquete aberto para este contato.",
      });
    }
    expect(await ticketsOfContact(contact.id)).toHaveLength(1);
  });

  it("two tickets for one contact created at once: one 201, the other 409, one ticket kept", async () => {
    const contact = await quietContact();
    const answers = await Promise.all([
      createTicket(agentA.login, { contactId: contact.id, queueId: queueA.id }),
      createTicket(agentA2.login, { contactId: contact.id, queueId: queueA.id }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const loser = answers.find((r) => r.statusCode === 409)!;
    const winner = answers.find((r) => r.statusCode === 201)!.json<TicketDTO>();
    expect(loser.json()).toMatchObject({
      error: "ERR_OTHER_OPEN_TICKET",
      ticketId: winner.id,
      userName: winner.user!.name,
    });
    expect(await ticketsOfContact(contact.id)).toEqual([expect.objectContaining({ id: winner.id })]);
  });

  it("a database failure the agent can retry (a deadlock) answers 400 ERR_CREATING_TICKET, not a 500; the retry works", async () => {
    const contact = await quietContact();
    const lift = await failInserts(ctx.deps.db, {
      table: "tickets",
      column: "contact_id",
      value: contact.id,
      sqlState: "40P01",
    });
    try {
      const res = await createTicket(agentA.login, { contactId: contact.id, queueId: queueA.id });
      expectError(res, 400, "ERR_CREATING_TICKET");
      expect(res.json()).toMatchObject({ message: "Erro ao criar o tíquete no banco de dados." });
      expect(await ticketsOfContact(contact.id)).toHaveLength(0);
    } finally {
      await lift();
    }
    ticketOk(await createTicket(agentA.login, { contactId: contact.id, queueId: queueA.id }), 201);
  });

  it("bad input answers 4xx and creates nothing", async () => {
    const contact = await quietContact();
    const cases: [LoggedIn, unknown, number, string][] = [
      [a.adminLogin, {}, 400, "ERR_VALIDATION"],
      [a.adminLogin, { contactId: "abc" }, 400, "ERR_VALIDATION"],
      [a.adminLogin, { contactId: contact.id, status: "closed" }, 400, "ERR_VALIDATION"],
      [a.adminLogin, { contactId: contact.id, queueId: -1 }, 400, "ERR_VALIDATION"],
      [a.adminLogin, { contactId: contact.id, whatsappId: "x" }, 400, "ERR_VALIDATION"],
      // A queue is required of an agent ('Selecione uma fila'), and it must be one of theirs.
      [agentA.login, { contactId: contact.id }, 400, "ERR_VALIDATION"],
      [agentA.login, { contactId: contact.id, queueId: queueB.id }, 403, "ERR_NO_PERMISSION"],
      // Another company's contact, queue, user; unknown connection.
      [a.adminLogin, { contactId: b.contactId }, 404, "ERR_NO_CONTACT_FOUND"],
      [a.adminLogin, { contactId: contact.id, queueId: b.queueId }, 404, "ERR_NO_QUEUE_FOUND"],
      [a.adminLogin, { contactId: contact.id, userId: b.user.id }, 404, "ERR_NO_USER_FOUND"],
      [a.adminLogin, { contactId: contact.id, whatsappId: 2_147_483_647 }, 404, "ERR_NO_WAPP_FOUND"],
    ];
    for (const [who, body, status, error] of cases) {
      const res = await createTicket(who, body);
      expectError(res, status, error);
    }
    const noQueue = await createTicket(agentA.login, { contactId: contact.id });
    expect(noQueue.json().fields).toEqual({ queueId: "Selecione uma fila" });
    expect(await ticketsOfContact(contact.id)).toEqual([]);
    expect(await ticketsOfContact(b.contactId)).toEqual(
      [b.ticket].map((t) => expect.objectContaining({ id: t.id })),
    );
  });
});
