import { and, lte, or, eq, count } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { jobs } from "../db/schema/index.js";
import { type TestContext, waitFor } from "./harness.js";

/**
 * Markers that the background work a test started is over, so that a test proving something did NOT
 * happen (nothing sent, no event heard) looks after the fact rather than after a guessed sleep.
 */

/**
 * Resolves once no job (of `companyId`, or of any company) is due or running by the server's clock:
 * whatever a request enqueued before this call has run by then. Jobs are written in the request's
 * own transaction, so a request that answered has enqueued all it ever will; a test that proves
 * something was NOT sent asserts after this. Jobs due later (a timer, a retry) do not count. `ctx`
 * may be any instance of a shared database.
 */
export async function jobsIdle(
  ctx: Pick<TestContext, "deps">,
  companyId?: number,
  timeoutMs = 10_000,
): Promise<void> {
  await waitFor(async () => {
    const busy = or(
      eq(jobs.status, "running"),
      and(eq(jobs.status, "pending"), lte(jobs.runAt, ctx.deps.now())),
    );
    const [row] = await ctx.deps.db
      .select({ n: count() })
      .from(jobs)
      .where(companyId === undefined ? busy : and(eq(jobs.companyId, companyId), busy));
    return row!.n === 0;
  }, timeoutMs);
}

/**
 * Resolves once `socket` has received everything the server sent it before this call: it asks the
 * server something it refuses at once and changes nothing for (a chat box of ticket 0), and the
 * answer travels behind whatever the server wrote to that connection earlier (socket.io delivers
 * one connection's packets in order). An acknowledgement is not an event: `onAny` does not see it.
 */
export async function caughtUp(socket: Socket): Promise<void> {
  if (!socket.connected) throw new Error("caughtUp: the socket is disconnected");
  const answer = (await socket.timeout(5_000).emitWithAck("joinChatBox", 0)) as { ok: boolean };
  if (answer.ok) throw new Error("joinChatBox 0 was accepted: caughtUp needs a refused join");
}
