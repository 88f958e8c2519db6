import { z } from "zod";
import type { PlanDTO } from "./companies.js";
import { noNul } from "./validation.js";

/** A plan as the super user manages it (GET /plans/all, GET/POST/PUT /plans/{id}). */
export interface PlanRecordDTO extends PlanDTO {
  campaigns: number;
  schedules: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * A plan as a visitor sees it to choose one at sign-up (GET /plans/list, GET /plans/register,
 * public): what the sign-up form shows (name, users, connections, queues, price) and nothing the
 * platform keeps to itself (feature switches, timestamps).
 */
export interface PublicPlanDTO {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
}

export const PLAN_NAME_MAX = 100;
/** Limits stay inside a PostgreSQL integer; 0 means no limit. */
export const PLAN_LIMIT_MAX = 1_000_000;
/** The price's column is numeric(12, 2). */
export const PLAN_VALUE_MAX = 9_999_999_999;

/** Clients of this API family send the form's numbers as text ("10", "29.90"). */
const numericText = (v: unknown) => (typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);

const limitField = z.preprocess(
  numericText,
  z
    .number("validation.invalid")
    .int("validation.invalid")
    .min(0, "validation.invalid")
    .max(PLAN_LIMIT_MAX, "validation.invalid"),
);
const valueField = z.preprocess(
  numericText,
  z.number("validation.invalid").min(0, "validation.invalid").max(PLAN_VALUE_MAX, "validation.invalid"),
);
const flag = z.boolean("validation.invalid");

export const planNameField = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required", abort: true })
  .max(PLAN_NAME_MAX, "validation.tooLong")
  .refine(noNul, "validation.invalid");

const planFields = {
  users: limitField,
  connections: limitField,
  queues: limitField,
  campaigns: limitField,
  schedules: limitField,
  value: valueField,
  useCampaigns: flag,
  useSchedules: flag,
  useInternalChat: flag,
  useExternalApi: flag,
  useKanban: flag,
  useOpenAi: flag,
  useIntegrations: flag,
  useInternal: flag,
};

/** POST /plans: the name is required; a limit or switch left out starts at 0 / off. */
export const planCreateSchema = z
  .object({ name: planNameField, ...planFields })
  .partial()
  .required({ name: true });
export type PlanCreateInput = z.infer<typeof planCreateSchema>;

/** PUT /plans/{id}: the fields sent change, the rest stay. */
export const planUpdateSchema = z.object({ name: planNameField, ...planFields }).partial();
export type PlanUpdateInput = z.infer<typeof planUpdateSchema>;
