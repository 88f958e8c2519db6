import type { PlanRecordDTO, PublicPlanDTO } from "@atende/contracts";
import { presentPlan } from "../companies/queries.js";
import type { PlanRow } from "./queries.js";

/** The plan as the super user manages it. */
export function presentPlanRecord(row: PlanRow): PlanRecordDTO {
  return {
    ...presentPlan(row),
    campaigns: row.campaigns,
    schedules: row.schedules,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The plan as a visitor choosing one at sign-up sees it: what the form shows, nothing else. */
export function presentPublicPlan(row: PlanRow): PublicPlanDTO {
  return {
    id: row.id,
    name: row.name,
    users: row.users,
    connections: row.connections,
    queues: row.queues,
    value: Number(row.value),
  };
}
