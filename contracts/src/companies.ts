import { z } from "zod";
import type { PlanFlag } from "./constants.js";
import { isCalendarDate } from "./dashboard.js";
import { type ScheduleEntry, schedulesField } from "./openingHours.js";

export interface PlanDTO extends Record<PlanFlag, boolean> {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
}

/**
 * A company's standing as the super user sets it (PUT /companies/{id}): active or not, and the due
 * date (YYYY-MM-DD, null for none). The rest of the company form comes with the platform's pages.
 */
export const companyStandingSchema = z.object({
  status: z.boolean("validation.invalid").optional(),
  dueDate: z.string("validation.invalid").refine(isCalendarDate, "validation.invalid").nullable().optional(),
});
export type CompanyStandingInput = z.infer<typeof companyStandingSchema>;

/** PUT /companies/{id}/schedules. */
export const companySchedulesSchema = z.object({ schedules: schedulesField });
export type CompanySchedulesInput = z.infer<typeof companySchedulesSchema>;

export interface CompanySchedulesDTO {
  id: number;
  schedules: ScheduleEntry[];
}

/** The company as GET /companies/{id} answers it to its own admin. */
export interface CompanyDTO {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  planId: number | null;
  status: boolean;
  dueDate: string | null;
  recurrence: string;
  schedules: ScheduleEntry[];
  createdAt: string;
}

/**
 * GET /companies/listPlan/{companyId}: the company with its plan, as clients of this API family
 * read it to build their menu. A company without a plan gets a stand-in as the server enforces it:
 * `id` and `name` null, limits 0 (no limit), every feature off.
 */
export interface CompanyPlanDTO {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  status: boolean;
  dueDate: string | null;
  createdAt: string;
  plan: Omit<PlanDTO, "id" | "name"> & { id: number | null; name: string | null };
}
