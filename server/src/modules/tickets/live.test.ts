import type { Socket } from "socket.io-client";
import { beforeAll, describe, expect, it } from "vitest";
import { type CompanyEventPayloads, companyEvent } from "@atende/contracts";
import { phoneSends } from "../../test/channels.js";
import { type LoggedIn } from "../../test/factories.js";
import { connectSocket, record, waitFor } from "../../test/harness.js";
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
  b,
  sockets,
  getTicket,
  updateTicket,
  deleteTicket,
  ticketOk,
  customerWrites,
  pendingIn,
  openFor,
} from "./testing.js";

/**
 * The live channel: company-{id}-ticket reaches exactly who may see the ticket.
 */
setupTicketsSuite();

describe("live: company-{id}-ticket reaches exactly who may see the ticket", () => {
  type TicketEvent = CompanyEventPayloads["ticket"];
  let url: string;
  let live: Record<"admin" | "agentA" | "agentB" | "agentAll", TicketEvent[]>;
  let strangerHeard: { event: string; payload: unknown }[];
  let adminB: TicketEvent[];

  beforeAll(async () => {
    url = await ctx.url();
    const open = async (who: LoggedIn) => {
      const socket = await connectSocket(url, who.token);
      sockets.push(socket);
      return socket;
    };
    live = {
      admin: record<TicketEvent>(await open(a.adminLogin), companyEvent(a.company.id, "ticket")),
      agentA: record<TicketEvent>(await open(agentA.login), companyEvent(a.company.id, "ticket")),
      agentB: record<TicketEvent>(await open(agentB.login), companyEvent(a.company.id, "ticket")),
      agentAll: record<TicketEvent>(await open(agentAll.login), companyEvent(a.company.id, "ticket")),
    };
    const stranger = await open(b.admin.login);
    strangerHeard = [];
    stranger.onAny((event: string, payload: unknown) => strangerHeard.push({ event, payload }));
    adminB = record<TicketEvent>(stranger, companyEvent(b.ticket.companyId, "ticket"));
  });

  /** The events about ticket `id`, but for the "left this status" deletes (tested on their own). */
  const about = (events: TicketEvent[], id: number) =>
    events.filter(
      (e) => ("ticket" in e ? e.ticket.id : e.ticketId) === id && !("fromStatus" in e && e.fromStatus),
    );
  const everything = (events: TicketEvent[], id: number) =>
    events.filter((e) => ("ticket" in e ? e.ticket.id : e.ticketId) === id);
  const summary = (events: TicketEvent[], id: number) =>
    about(events, id).map((e) =>
      e.action === "update" ? [e.action, e.ticket.status, e.ticket.queueId, e.ticket.userId] : [e.action],
    );

  it("create, queue, accept, unread and delete: each event goes to the admins, the queue's agents and the holder only", async () => {
    const ticket = await customerWrites("alguém aí?");
    // Unqueued and pending: the admins and whoever has allTicket.
    await waitFor(
      () => about(live.admin, ticket.id).length === 1 && about(live.agentAll, ticket.id).length === 1,
    );
    expect(about(live.admin, ticket.id)[0]).toMatchObject({
      action: "update",
      ticket: {
        id: ticket.id,
        status: "pending",
        queueId: null,
        unreadMessages: 1,
        lastMessage: "alguém aí?",
      },
    });

    ticketOk(await updateTicket(a.adminLogin, ticket.id, { queueId: queueA.id }));
    await waitFor(() => about(live.agentA, ticket.id).length === 1);
    ticketOk(await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }));
    await waitFor(() => about(live.agentA, ticket.id).length === 2);
    expect(summary(live.agentA, ticket.id)).toEqual([
      ["update", "pending", queueA.id, null],
      ["update", "open", queueA.id, agentA.id],
    ]);

    // A new message counts as unread for everyone who sees the ticket; the agent opening it resets the count.
    await customerWrites("ainda aqui", { number: ticket.number });
    await waitFor(() => about(live.agentA, ticket.id).length === 3);
    expect(about(live.agentA, ticket.id)[2]).toMatchObject({
      action: "update",
      ticket: { unreadMessages: 2 },
    });
    ticketOk(await getTicket(agentA.login, ticket.id));
    await waitFor(
      () => about(live.agentA, ticket.id).length === 5 && about(live.admin, ticket.id).length === 6,
    );
    expect(about(live.agentA, ticket.id)[3]).toMatchObject({
      action: "update",
      ticket: { unreadMessages: 0 },
    });
    expect(about(live.agentA, ticket.id)[4]).toEqual({ action: "updateUnread", ticketId: ticket.id });

    const res = await deleteTicket(a.adminLogin, ticket.id);
    expect(res.statusCode).toBe(204);
    await waitFor(
      () => about(live.agentA, ticket.id).length === 6 && about(live.admin, ticket.id).length === 7,
    );
    expect(about(live.agentA, ticket.id)[5]).toEqual({ action: "delete", ticketId: ticket.id });
    expect(summary(live.admin, ticket.id)).toEqual([
      ["update", "pending", null, null],
      ["update", "pending", queueA.id, null],
      ["update", "open", queueA.id, agentA.id],
      ["update", "open", queueA.id, agentA.id],
      ["update", "open", queueA.id, agentA.id],
      ["updateUnread"],
      ["delete"],
    ]);

    // A change in queue B, heard by agent B, shows nothing about the queue A ticket came before it.
    const sentinel = await pendingIn(queueB.id);
    ticketOk(await updateTicket(a.adminLogin, sentinel.id, { status: "closed" }));
    await waitFor(() => about(live.agentB, sentinel.id).length === 1);
    expect(about(live.agentB, ticket.id)).toEqual([]);

    // Company B's socket hears its own company's change and nothing of company A.
    ticketOk(await updateTicket(b.admin.login, b.ticket.id, { status: "open" }));
    await waitFor(() => adminB.length === 2);
    expect(adminB[0]).toEqual({ action: "delete", ticketId: b.ticket.id, fromStatus: "pending" });
    expect(adminB[1]).toMatchObject({ action: "update", ticket: { id: b.ticket.id, status: "open" } });
    expect(strangerHeard.filter((e) => !e.event.startsWith(`company-${b.ticket.companyId}-`))).toEqual([]);
    expect(JSON.stringify(strangerHeard)).not.toContain(ticket.number);
  });

  it("a transfer: the new queue hears an update, whoever loses sight of the ticket hears a delete", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    // Its arrival (before it was put in queue A) reached the admins only.
    await waitFor(() => about(live.admin, ticket.id).length === 1);
    ticketOk(await updateTicket(a.adminLogin, ticket.id, { queueId: queueB.id }));
    await waitFor(
      () =>
        about(live.agentB, ticket.id).length === 1 &&
        about(live.agentA, ticket.id).length >= 1 &&
        about(live.admin, ticket.id).length === 2,
    );
    expect(summary(live.agentB, ticket.id)).toEqual([["update", "pending", queueB.id, null]]);
    expect(about(live.agentA, ticket.id)).toEqual([{ action: "delete", ticketId: ticket.id }]);
    expect(summary(live.admin, ticket.id)[1]).toEqual(["update", "pending", queueB.id, null]);

    // An unqueued ticket given a queue leaves the view of those who saw it only through allTicket.
    const unqueued = await customerWrites("sem fila");
    await waitFor(() => about(live.agentAll, unqueued.id).length === 1);
    ticketOk(await updateTicket(a.adminLogin, unqueued.id, { queueId: queueA.id }));
    await waitFor(
      () => about(live.agentA, unqueued.id).length === 1 && about(live.agentAll, unqueued.id).length === 2,
    );
    expect(about(live.agentAll, unqueued.id)[1]).toEqual({ action: "delete", ticketId: unqueued.id });
  });

  it("a new status or agent: who saw it hears it left the old status before the update (lists per status)", async () => {
    // A client of this API family: one list per status, in the status rooms and the notification room.
    const perStatus = await connectSocket(url, agentA2.login.token);
    sockets.push(perStatus);
    for (const room of ["pending", "open", "closed"])
      expect(await perStatus.timeout(2_000).emitWithAck("joinTickets", room)).toEqual({ ok: true });
    expect(await perStatus.timeout(2_000).emitWithAck("joinNotification")).toEqual({ ok: true });
    const heard = record<TicketEvent>(perStatus, companyEvent(a.company.id, "ticket"));
    const moves = (events: TicketEvent[], id: number) =>
      everything(events, id).map((e) =>
        e.action === "update"
          ? ["update", e.ticket.status]
          : [e.action, "fromStatus" in e ? e.fromStatus : null],
      );

    const ticket = await pendingIn(queueA.id);
    ticketOk(await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }));
    await waitFor(() => moves(heard, ticket.id).length === 2);
    expect(moves(heard, ticket.id)).toEqual([
      ["delete", "pending"],
      ["update", "open"],
    ]);
    ticketOk(await updateTicket(agentA.login, ticket.id, { status: "closed" }));
    await waitFor(() => moves(heard, ticket.id).length === 4);
    expect(moves(heard, ticket.id).slice(2)).toEqual([
      ["delete", "open"],
      ["update", "closed"],
    ]);
    // Agent A (holder) and the admins hear the same order; queue B's agent, who never saw it, nothing.
    await waitFor(
      () => moves(live.agentA, ticket.id).length >= 4 && moves(live.admin, ticket.id).length >= 4,
    );
    expect(moves(live.agentA, ticket.id).slice(-4)).toEqual(moves(heard, ticket.id));
    expect(moves(live.admin, ticket.id).slice(-4)).toEqual(moves(heard, ticket.id));
    expect(everything(live.agentB, ticket.id)).toEqual([]);

    // Given to another agent without a new status: the old holder's list per status hears it left too.
    const held = await openFor(agentA.id, queueA.id);
    ticketOk(await updateTicket(a.adminLogin, held.id, { userId: agentA2.id }));
    await waitFor(() => moves(heard, held.id).length === 2);
    expect(moves(heard, held.id)).toEqual([
      ["delete", "open"],
      ["update", "open"],
    ]);
    // A change of neither (a queue-less message, an unread reset) is only an update.
    await customerWrites("mais uma", { number: held.number });
    await waitFor(() => moves(heard, held.id).length === 3);
    expect(moves(heard, held.id)[2]).toEqual(["update", "open"]);
  });

  it("the chat box: only who may see the ticket joins it and hears the contact typing; a transfer out of their view evicts them", async () => {
    type Presence = CompanyEventPayloads["presence"];
    const ticket = await openFor(agentA.id, queueA.id);
    const chatOpen = await connectSocket(url, agentA.login.token);
    const chatClosed = await connectSocket(url, agentA2.login.token);
    const outsider = await connectSocket(url, agentB.login.token);
    sockets.push(chatOpen, chatClosed, outsider);
    const join = (socket: Socket, id: unknown) => socket.timeout(2_000).emitWithAck("joinChatBox", id);
    expect(await join(chatOpen, ticket.id)).toEqual({ ok: true });
    expect(await join(outsider, ticket.id)).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });
    expect(await join(outsider, b.ticket.id)).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });
    const presence = (socket: Socket) => record<Presence>(socket, companyEvent(a.company.id, "presence"));
    const heard = { open: presence(chatOpen), closed: presence(chatClosed), outsider: presence(outsider) };
    const ticketEvents = record<TicketEvent>(chatOpen, companyEvent(a.company.id, "ticket"));
    const typing = async (state: string) =>
      expect(
        (await phoneSends(ctx, a.adminLogin, a.connection.id, { from: ticket.number, presence: state }))
          .statusCode,
      ).toBe(201);

    await typing("composing");
    await waitFor(() => heard.open.length === 1);
    expect(heard.open).toEqual([{ ticketId: ticket.id, presence: "composing" }]);

    // Moved to queue B: Ana may no longer see it, so she hears it is gone, and nothing more of it.
    ticketOk(await updateTicket(a.adminLogin, ticket.id, { queueId: queueB.id }));
    await waitFor(() => about(ticketEvents, ticket.id).length === 1);
    expect(about(ticketEvents, ticket.id)).toEqual([{ action: "delete", ticketId: ticket.id }]);
    expect(await join(outsider, ticket.id)).toEqual({ ok: true });
    await typing("recording");
    await waitFor(() => heard.outsider.length === 1);
    expect(heard.outsider).toEqual([{ ticketId: ticket.id, presence: "recording" }]);
    expect(heard.open).toHaveLength(1);
    expect(heard.closed).toEqual([]);
  });
});
