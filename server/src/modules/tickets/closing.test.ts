import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { messages } from "../../db/schema/index.js";
import { buildQueue, uid } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import {
  setupTicketsSuite,
  ctx,
  a,
  queueA,
  agentA,
  b,
  call,
  deleteTicket,
  rowOf,
  pendingIn,
  openFor,
} from "./testing.js";

/**
 * Deleting a ticket (DELETE /tickets/{id}) and closing a whole tab at once (POST /tickets/closeAll).
 */
setupTicketsSuite();

describe("DELETE /tickets/{id} and POST /tickets/closeAll", () => {
  it("delete needs ticket-options:deleteTicket: a plain user gets 403 ERR_NO_PERMISSION and nothing is deleted", async () => {
    const ticket = await openFor(agentA.id, queueA.id, "apagar?");
    expectError(await deleteTicket(agentA.login, ticket.id), 403, "ERR_NO_PERMISSION");
    expect(await rowOf(ticket.id)).not.toBeNull();

    const res = await deleteTicket(a.adminLogin, ticket.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(await rowOf(ticket.id)).toBeNull();
    expect(await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, ticket.id))).toEqual([]);
    expectError(await deleteTicket(a.adminLogin, ticket.id), 404, "ERR_NO_TICKET_FOUND");
  });

  it("closeAll is for admins and closes the chosen status within the selected queues only", async () => {
    const db = ctx.deps.db;
    const queueC = await buildQueue(db, a.company.id, { name: `Fila C ${uid()}` });
    const queueD = await buildQueue(db, a.company.id, { name: `Fila D ${uid()}` });
    const pendingC1 = await pendingIn(queueC.id);
    const pendingC2 = await pendingIn(queueC.id);
    const openC = await openFor(agentA.id, queueC.id);
    const pendingD = await pendingIn(queueD.id);
    const pendingNone = await pendingIn(null);

    expectError(
      await call("POST", "/tickets/closeAll", agentA.login, {
        status: "pending",
        selectedQueueIds: [queueC.id],
      }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await call("POST", "/tickets/closeAll", a.adminLogin, {
        status: "closed",
        selectedQueueIds: [queueC.id],
      }),
      400,
      "ERR_VALIDATION",
    );
    // Another company's admin naming A's queue closes nothing of A's.
    const foreign = await call("POST", "/tickets/closeAll", b.admin.login, {
      status: "pending",
      selectedQueueIds: [queueC.id],
    });
    expect(foreign.statusCode, foreign.body).toBe(200);
    expect(foreign.json()).toEqual({ closed: 0 });
    expect((await rowOf(pendingC1.id))!.status).toBe("pending");

    const res = await call("POST", "/tickets/closeAll", a.adminLogin, {
      status: "pending",
      selectedQueueIds: [queueC.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ closed: 2 });
    for (const t of [pendingC1, pendingC2]) expect((await rowOf(t.id))!.status).toBe("closed");
    expect(await rowOf(openC.id)).toMatchObject({ status: "open", userId: agentA.id });
    expect((await rowOf(pendingD.id))!.status).toBe("pending");
    expect((await rowOf(pendingNone.id))!.status).toBe("pending");
    expect((await rowOf(b.ticket.id))!.status).toBe("pending");

    const openAll = await call("POST", "/tickets/closeAll", a.adminLogin, {
      status: "open",
      selectedQueueIds: `[${queueC.id},${queueD.id}]`,
    });
    expect(openAll.json()).toEqual({ closed: 1 });
    expect(await rowOf(openC.id)).toMatchObject({ status: "closed", userId: agentA.id, queueId: queueC.id });
    expect((await rowOf(pendingD.id))!.status).toBe("pending");
  });
});
