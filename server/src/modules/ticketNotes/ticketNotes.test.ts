import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompanyEventPayloads, TicketNoteDTO } from "@atende/contracts";
import { tickets } from "../../db/schema/index.js";
import { expectError, expectOk, caller, fieldsOf } from "../../test/calls.js";
import { buildSimulatorCompany, phoneOpensTicket } from "../../test/channels.js";
import {
  type LoggedIn,
  buildCompany,
  buildQueue,
  buildMember,
  type Member,
  newNumber,
} from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { caughtUp } from "../../test/settled.js";

/**
 * Ticket notes on a real database: the contact drawer's private notes. Validation texts, who may
 * read, write and delete them (the ticket's visibility; author, admin or supervisor to delete),
 * tenant isolation, and the live channel. Tickets are born from a simulator phone, as in production.
 */

let ctx: TestContext;
let a: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let agentA: Member;
let agentA2: Member;
let agentB: Member;
let supervisor: Member;
let adminB: Member;
const sockets: Socket[] = [];
const call = caller(() => ctx);

/** A customer writes in; the ticket is placed in queue A (index 0) or B (1). */
async function ticketInQueue(index: 0 | 1) {
  const ticket = await phoneOpensTicket(ctx, a, { number: newNumber(), name: "Cliente", body: "oi" });
  const queueId = a.queues[index]!.id;
  await ctx.deps.db.update(tickets).set({ queueId }).where(eq(tickets.id, ticket.id));
  return { ...ticket, queueId };
}

const addNote = (who: LoggedIn, body: Record<string, unknown>) => call("POST", "/ticket-notes", who, body);
const listNotes = (who: LoggedIn, ticketId: number, contactId?: number) =>
  call("GET", `/ticket-notes/list?ticketId=${ticketId}${contactId ? `&contactId=${contactId}` : ""}`, who);

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  ctx.built.startBackground();
  a = await buildSimulatorCompany(ctx, { queues: 2 });
  agentA = await buildMember(ctx, a.company.id, { name: "Ana", queueIds: [a.queues[0]!.id] });
  agentA2 = await buildMember(ctx, a.company.id, { name: "Aldo", queueIds: [a.queues[0]!.id] });
  agentB = await buildMember(ctx, a.company.id, { name: "Bia", queueIds: [a.queues[1]!.id] });
  supervisor = await buildMember(ctx, a.company.id, {
    name: "Sara",
    profile: "supervisor",
    queueIds: [a.queues[0]!.id],
  });
  const companyB = await buildCompany(ctx.deps.db);
  await buildQueue(ctx.deps.db, companyB.id);
  adminB = await buildMember(ctx, companyB.id, { profile: "admin" });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

describe("ticket notes: validation", () => {
  it("requires the note ('Required') and at least 2 characters ('Too Short!'), and a ticket", async () => {
    const ticket = await ticketInQueue(0);
    for (const [note, text] of [
      [undefined, "Required"],
      ["", "Required"],
      ["   ", "Required"],
      ["a", "Too Short!"],
      [" a ", "Too Short!"],
    ] as const) {
      expect(fieldsOf(await addNote(agentA.login, { ticketId: ticket.id, note })).note, String(note)).toBe(
        text,
      );
    }
    expect(fieldsOf(await addNote(agentA.login, { note: "sem ticket" }))).toHaveProperty("ticketId");
    expect(fieldsOf(await addNote(agentA.login, { ticketId: "x", note: "ok ok" }))).toHaveProperty(
      "ticketId",
    );
    expect(fieldsOf(await addNote(agentA.login, { ticketId: ticket.id, note: "x".repeat(5001) })).note).toBe(
      "Too Long!",
    );
    const spanish = await call(
      "POST",
      "/ticket-notes",
      agentA.login,
      { ticketId: ticket.id, note: "a" },
      {
        "accept-language": "es",
      },
    );
    expect(fieldsOf(spanish).note).toBe("¡Demasiado corto!");
    expect(fieldsOf(await call("GET", "/ticket-notes/list", agentA.login))).toHaveProperty("ticketId");
    // Nothing of a refused note was written.
    expect(expectOk<TicketNoteDTO[]>(await listNotes(agentA.login, ticket.id))).toEqual([]);
  });
});

describe("ticket notes: add, list, delete", () => {
  it("adds a note with its author and time, lists a ticket's notes newest first, deletes it", async () => {
    const ticket = await ticketInQueue(0);
    const first = expectOk<TicketNoteDTO>(
      await addNote(agentA.login, {
        ticketId: ticket.id,
        contactId: ticket.contactId,
        note: "  Cliente VIP  ",
      }),
      201,
    );
    expect(first).toEqual({
      id: expect.any(Number),
      note: "Cliente VIP",
      ticketId: ticket.id,
      contactId: ticket.contactId,
      userId: agentA.id,
      user: { id: agentA.id, name: "Ana" },
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    // The contact comes from the ticket when the client leaves it out.
    const second = expectOk<TicketNoteDTO>(
      await addNote(supervisor.login, { ticketId: String(ticket.id), note: "ok" }),
      201,
    );
    expect(second).toMatchObject({ contactId: ticket.contactId, user: { name: "Sara" } });

    const listed = expectOk<TicketNoteDTO[]>(await listNotes(agentA2.login, ticket.id, ticket.contactId));
    expect(listed.map((n) => n.id)).toEqual([second.id, first.id]);
    // Another ticket's notes are not among them.
    const other = await ticketInQueue(0);
    expectOk(await addNote(agentA.login, { ticketId: other.id, note: "outro ticket" }), 201);
    expect(expectOk<TicketNoteDTO[]>(await listNotes(agentA.login, ticket.id))).toHaveLength(2);

    expectOk(await call("DELETE", `/ticket-notes/${first.id}`, agentA.login), 204);
    expect(expectOk<TicketNoteDTO[]>(await listNotes(agentA.login, ticket.id)).map((n) => n.id)).toEqual([
      second.id,
    ]);
    expectError(
      await call("DELETE", `/ticket-notes/${first.id}`, agentA.login),
      404,
      "ERR_NO_TICKET_NOTE_FOUND",
    );
  });

  it("keeps a deleted author's notes, without a name; a contact that is not the ticket's is refused", async () => {
    const ticket = await ticketInQueue(0);
    const leaving = await buildMember(ctx, a.company.id, { name: "Léo", queueIds: [a.queues[0]!.id] });
    const note = expectOk<TicketNoteDTO>(
      await addNote(leaving.login, { ticketId: ticket.id, note: "até logo" }),
      201,
    );
    expectOk(await call("DELETE", `/users/${leaving.id}`, a.adminLogin), 204);
    const [kept] = expectOk<TicketNoteDTO[]>(await listNotes(agentA.login, ticket.id));
    expect(kept).toMatchObject({ id: note.id, userId: null, user: null });

    const other = await ticketInQueue(0);
    expectError(
      await addNote(agentA.login, { ticketId: ticket.id, contactId: other.contactId, note: "errado" }),
      404,
      "ERR_NO_CONTACT_FOUND",
    );
    expect(expectOk<TicketNoteDTO[]>(await listNotes(agentA.login, ticket.id, other.contactId))).toEqual([]);
  });
});

describe("ticket notes: who may", () => {
  it("follows the ticket's visibility; deleting is for the author, admin and supervisor", async () => {
    const ticket = await ticketInQueue(0);
    const note = expectOk<TicketNoteDTO>(
      await addNote(agentA.login, { ticketId: ticket.id, note: "minha nota" }),
      201,
    );

    // Outside the agent's queues: 403, as the chat says 'Acesso não permitido'.
    expectError(await listNotes(agentB.login, ticket.id), 403, "ERR_TICKET_ACCESS_DENIED");
    expectError(
      await addNote(agentB.login, { ticketId: ticket.id, note: "intrusa" }),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );
    expectError(
      await call("DELETE", `/ticket-notes/${note.id}`, agentB.login),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );

    // A colleague of the queue reads it, but may not delete someone else's note.
    expectError(await call("DELETE", `/ticket-notes/${note.id}`, agentA2.login), 403, "ERR_NO_PERMISSION");
    expectOk(await call("DELETE", `/ticket-notes/${note.id}`, supervisor.login), 204);

    const again = expectOk<TicketNoteDTO>(
      await addNote(agentA.login, { ticketId: ticket.id, note: "de novo" }),
      201,
    );
    expectOk(await call("DELETE", `/ticket-notes/${again.id}`, a.adminLogin), 204);
    expect(expectOk<TicketNoteDTO[]>(await listNotes(agentA.login, ticket.id))).toEqual([]);
  });

  it("answers 404 across companies, as if the ticket and the note did not exist", async () => {
    const ticket = await ticketInQueue(0);
    const note = expectOk<TicketNoteDTO>(
      await addNote(agentA.login, { ticketId: ticket.id, note: "da empresa A" }),
      201,
    );
    expectError(await listNotes(adminB.login, ticket.id), 404, "ERR_NO_TICKET_FOUND");
    expectError(
      await addNote(adminB.login, { ticketId: ticket.id, note: "da B" }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
    expectError(
      await call("DELETE", `/ticket-notes/${note.id}`, adminB.login),
      404,
      "ERR_NO_TICKET_NOTE_FOUND",
    );
    expect(expectOk<TicketNoteDTO[]>(await listNotes(agentA.login, ticket.id))).toHaveLength(1);
    expectError(
      await call("GET", "/ticket-notes/list?ticketId=1", { ...agentA.login, auth: { authorization: "" } }),
      401,
      "ERR_NO_SESSION",
    );
  });
});

describe("ticket notes: the live channel", () => {
  it("tells who may see the ticket about a note added and deleted, and nobody else", async () => {
    const url = await ctx.url();
    const ticket = await ticketInQueue(0);
    const event = `company-${a.company.id}-ticketNote`;
    const seeing = await connectSocket(url, agentA2.login.token);
    const notSeeing = await connectSocket(url, agentB.login.token);
    sockets.push(seeing, notSeeing);
    const heard = record<CompanyEventPayloads["ticketNote"]>(seeing, event);
    const unheard = record<CompanyEventPayloads["ticketNote"]>(notSeeing, event);

    const note = expectOk<TicketNoteDTO>(
      await addNote(agentA.login, {
        ticketId: ticket.id,
        note: `ao vivo ${crypto.randomUUID().slice(0, 4)}`,
      }),
      201,
    );
    await waitFor(() => heard.length === 1);
    expect(heard[0]).toEqual({ action: "create", note });
    expectOk(await call("DELETE", `/ticket-notes/${note.id}`, agentA.login), 204);
    await waitFor(() => heard.length === 2);
    expect(heard[1]).toEqual({ action: "delete", noteId: note.id, ticketId: ticket.id });
    await caughtUp(notSeeing);
    expect(unheard).toEqual([]);
  });
});
