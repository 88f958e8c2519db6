import { buildCompany, buildPlan, buildQueue, buildUser, login } from "../../../test/factories.js";
import type { TestContext } from "../../../test/harness.js";

/** A company whose plan has bots and AI (unless `plan` says otherwise): its queue, admin and agent, logged in. */
export async function buildBotTeam(
  ctx: TestContext,
  plan: { useIntegrations?: boolean; useOpenAi?: boolean } = {},
) {
  const db = ctx.deps.db;
  const planRow = await buildPlan(db, { useIntegrations: true, useOpenAi: true, ...plan });
  const company = await buildCompany(db, { planId: planRow.id });
  const queue = await buildQueue(db, company.id);
  const admin = await buildUser(db, company.id, { profile: "admin" });
  const agent = await buildUser(db, company.id, { profile: "user", queueIds: [queue.id] });
  return {
    plan: planRow,
    company,
    queue,
    admin: await login(ctx, admin.email),
    agent: await login(ctx, agent.email),
  };
}
