import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { JobHandler, JobRunner } from "../../jobs/runner.js";
import { loadTicket } from "../tickets/queries.js";
import { SLA_BREACH_JOB } from "./clocks.js";
import { markBreached } from "./queries.js";

/**
 * A target's due time came (the job armed when it was set): still unmet, not paused, not marked,
 * the breach is marked and told (`ticket.slaBreached`: the queue's agents and the admins, socket
 * and push) with the ticket as it now is. The mark is one conditional statement, so two instances,
 * a job armed twice or a due time moved meanwhile (a transfer, a resume) tell nothing twice or late.
 */
export function slaBreachJob(deps: Pick<Deps, "db" | "bus" | "now">): JobHandler<typeof SLA_BREACH_JOB> {
  const { db, bus, now } = deps;
  return {
    async run(job) {
      const companyId = job.companyId;
      if (companyId === null) return;
      const { ticketId, target, dueAt } = job.payload;
      const due = new Date(dueAt);
      if (Number.isNaN(due.getTime())) return;
      await inTransaction(db, bus, async (tx, raise) => {
        const marked = await markBreached(tx, companyId, ticketId, target, due, now());
        if (!marked) return;
        const ticket = (await loadTicket(tx, companyId, ticketId))!;
        raise({ type: "ticket.slaBreached", companyId, ticket, target, dueAt: due.toISOString() });
        raise({ type: "ticket.saved", companyId, ticket });
      });
    },
  };
}

/** The service levels' durable jobs (app.ts's buildChannels). */
export function registerServiceLevelJobs(jobs: JobRunner, deps: Pick<Deps, "db" | "bus" | "now">) {
  jobs.register(SLA_BREACH_JOB, slaBreachJob(deps));
}
