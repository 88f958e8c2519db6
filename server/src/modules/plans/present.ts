import type { PlanDTO, PlanRecordDTO, PublicPlanDTO } from "@atende/contracts";
import type { PlanRow } from "./queries.js";

/** The plan as a company sees it (its session, the companies pages). */
export function presentPlan(p: PlanRow): PlanDTO {
  return {
    id: p.id,
    name: p.name,
    users: p.users,
    connections: p.connections,
    queues: p.queues,
    value: Number(p.value),
    useCampaigns: p.useCampaigns,
    useSchedules: p.useSchedules,
    useInternalChat: p.useInternalChat,
    useExternalApi: p.useExternalApi,
    useKanban: p.useKanban,
    useOpenAi: p.useOpenAi,
    useIntegrations: p.useIntegrations,
    useInternal: p.useInternal,
  };
}

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
