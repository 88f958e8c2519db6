import { z } from "zod";
import { timestamp } from "./answers.js";
import { planSchema } from "./companies.js";
import { noNul } from "./validation.js";

/** A plan as the super user manages it (GET /plans/all, GET/POST/PUT /plans/{id}). */
export const planRecordSchema = planSchema
  .extend({
    /** How many campaigns and schedules a company may have; 0 means no limit. */
    campaigns: z.number().int().nonnegative(),
    schedules: z.number().int().nonnegative(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "PlanRecord", description: "A plan as the super user manages it" });
export type PlanRecordDTO = z.infer<typeof planRecordSchema>;

/**
 * A plan as a visitor sees it to choose one at sign-up (GET /plans/list, GET /plans/register,
 * public): what the sign-up form shows (name, users, connections, queues, price) and nothing the
 * platform keeps to itself (feature switches, timestamps).
 */
export const publicPlanSchema = planSchema
  .pick({ id: true, name: true, users: true, connections: true, queues: true, value: true })
  .meta({ id: "PublicPlan", description: "A plan as the sign-up form shows it to a visitor" });
export type PublicPlanDTO = z.infer<typeof publicPlanSchema>;

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
