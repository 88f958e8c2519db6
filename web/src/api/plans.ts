import type { PlanCreateInput, PlanRecordDTO, PublicPlanDTO } from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";

export const planKeys = {
  all: ["plans"] as const,
  /** Every plan with all its fields (GET /plans/all, the super user's Planos tab). */
  records: () => [...planKeys.all, "all"] as const,
  /** The plans a visitor or the company form may choose (GET /plans/list, public). */
  choices: () => [...planKeys.all, "list"] as const,
};

export function fetchPlanRecords(signal?: AbortSignal): Promise<PlanRecordDTO[]> {
  return api.get<PlanRecordDTO[]>("/plans/all", { signal });
}

/** Public: the sign-up page asks before anyone logs in. */
export function fetchPlanChoices(signal?: AbortSignal): Promise<PublicPlanDTO[]> {
  return api.get<PublicPlanDTO[]>("/plans/list", { signal, anonymous: true });
}

export function savePlan(id: number | null, payload: PlanCreateInput): Promise<PlanRecordDTO> {
  return id === null
    ? api.post<PlanRecordDTO>("/plans", payload)
    : api.put<PlanRecordDTO>(`/plans/${id}`, payload);
}

export function deletePlan(id: number): Promise<void> {
  return api.delete(`/plans/${id}`);
}

/** A plan saved or deleted: both lists read again (the choices show a renamed plan too). */
export function refreshPlans(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: planKeys.all });
}
