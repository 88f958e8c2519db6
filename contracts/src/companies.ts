import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { LIMITS, PLAN_FLAGS, type PlanFlag, RECURRENCES } from "./constants.js";
import { isCalendarDate } from "./dashboard.js";
import { listQuerySchema } from "./lists.js";
import { settingSchema } from "./settings.js";
import { emailField, idOf, optionalEmpty, sizedText } from "./validation.js";
import { openingHoursDaySchema, schedulesField } from "./openingHours.js";

export type Recurrence = (typeof RECURRENCES)[number];

/** A day as the answers carry a due date or a trial's end: YYYY-MM-DD. */
const day = z.iso.date();
/** A plan's limit: how many of a thing a company may have; 0 means no limit. */
const planLimit = z.number().int().nonnegative();

const planFlagFields = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, z.boolean()])) as Record<
  PlanFlag,
  z.ZodBoolean
>;

/** A plan as a company sees it (its session, the companies pages): limits, price and feature switches. */
export const planSchema = z
  .object({
    id: rowId,
    name: z.string(),
    users: planLimit,
    connections: planLimit,
    queues: planLimit,
    /** The price in BRL, e.g. 59.9. */
    value: z.number().nonnegative(),
    ...planFlagFields,
  })
  .meta({ id: "Plan", description: "A plan as a company sees it: its limits (0: none), price and features" });
export type PlanDTO = z.infer<typeof planSchema>;

/**
 * A due date as the Empresas form sends it: YYYY-MM-DD, or an ISO timestamp whose day is taken.
 * Empty or invalid is sent (and read) as null: no due date (back-office spec, section 5).
 */
export function dueDateValue(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const day = v.trim().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}/.test(v.trim()) && isCalendarDate(day) ? day : null;
}
const dueDateField = z.preprocess(
  (v) => (v === undefined ? undefined : dueDateValue(v)),
  z.string().nullable().optional(),
);

export const COMPANY_NAME = { min: 2, max: 100 } as const;
/** A company's phone: digits only (a mask's spaces, dashes and brackets are dropped), at most 20. */
export const COMPANY_PHONE_MAX = 20;
/** Sign-up's phone: the mask (99) 99999-9999, at most 11 digits. */
export const SIGNUP_PHONE_MAX = 11;

const digitsOnly = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.replace(/[\s().+-]/g, "") : v === null ? "" : v),
    z
      .string("validation.invalid")
      .regex(/^\d*$/, "validation.invalid")
      .max(max, "validation.tooLong")
      .optional()
      // Absent stays absent (an update keeps the phone); empty clears it.
      .transform((v) => (v === undefined ? undefined : v || null)),
  );

const companyFields = {
  name: sizedText(COMPANY_NAME.min, COMPANY_NAME.max),
  email: emailField,
  phone: digitsOnly(COMPANY_PHONE_MAX),
  planId: idOf(undefined, "validation.required"),
  status: z.boolean("validation.invalid"),
  dueDate: dueDateField,
  recurrence: z.enum(RECURRENCES, "validation.invalid"),
  campaignsEnabled: z.boolean("validation.invalid"),
};

/**
 * POST /companies (super user, Cadastrar Empresa): name, e-mail and plan required. The company's
 * first admin is created with `email` (unique across the platform) and `adminName` (default: the
 * company's name), without a password: an e-mail lets the admin set one.
 */
export const companyCreateSchema = z.object({
  name: companyFields.name,
  email: companyFields.email,
  phone: companyFields.phone,
  planId: companyFields.planId,
  status: companyFields.status.default(true),
  dueDate: companyFields.dueDate.transform((v) => v ?? null),
  // The company form's empty select ("") is no choice: MENSAL on a new company, unchanged on an edit.
  recurrence: optionalEmpty(companyFields.recurrence.default("MENSAL")),
  campaignsEnabled: companyFields.campaignsEnabled.default(true),
  adminName: sizedText(LIMITS.userName.min, LIMITS.userName.max).optional(),
});
export type CompanyCreateInput = z.infer<typeof companyCreateSchema>;

/**
 * PUT /companies/{id} (super user, the Empresas form): the fields sent change, the rest stay.
 * dueDate empty or invalid: null (no due date). The company's e-mail here is its contact; its
 * users' e-mails do not change with it.
 */
export const companyUpdateSchema = z.object({
  name: companyFields.name.optional(),
  email: companyFields.email.optional(),
  phone: companyFields.phone,
  planId: companyFields.planId.optional(),
  status: companyFields.status.optional(),
  dueDate: companyFields.dueDate,
  recurrence: optionalEmpty(companyFields.recurrence),
  campaignsEnabled: companyFields.campaignsEnabled.optional(),
});
export type CompanyUpdateInput = z.infer<typeof companyUpdateSchema>;
/** Kept for the callers of the first version (status and dueDate only). */
export const companyStandingSchema = companyUpdateSchema;
export type CompanyStandingInput = CompanyUpdateInput;

/**
 * POST /companies/cadastro (public sign-up, /signup): only these fields are read. The server sets
 * dueDate and trialExpiration (today + the platform's `trial` days), recurrence MENSAL, status on
 * and campaignsEnabled on; anything else sent (dueDate, status, price...) is ignored.
 */
export const companySignupSchema = z.object({
  name: sizedText(2, 50),
  email: emailField,
  password: z
    .string({ error: "validation.required" })
    .min(1, { error: "validation.required", abort: true })
    .min(LIMITS.userPassword.min, "validation.tooShort")
    .max(LIMITS.userPassword.max, "validation.tooLong"),
  phone: digitsOnly(SIGNUP_PHONE_MAX),
  planId: idOf(undefined, "validation.required"),
});
export type CompanySignupInput = z.infer<typeof companySignupSchema>;

/** POST /companies/cadastro's answer. */
export const companySignupAnswerSchema = z
  .object({ id: rowId, name: z.string() })
  .meta({ id: "CompanySignupAnswer", description: "The company a sign-up created" });
export type CompanySignupAnswer = z.infer<typeof companySignupAnswerSchema>;

/** GET /companies (searchParam, pageNumber): a page of the Empresas table. */
export const companyListQuerySchema = listQuerySchema;

/** PUT /companies/{id}/schedules. */
export const companySchedulesSchema = z.object({ schedules: schedulesField });
export type CompanySchedulesInput = z.infer<typeof companySchedulesSchema>;

/** PUT /companies/{id}/schedules' answer: the company's opening hours as saved. */
export const companySchedulesAnswerSchema = z
  .object({ id: rowId, schedules: z.array(openingHoursDaySchema) })
  .meta({ id: "CompanySchedules", description: "A company's opening hours, one entry per weekday" });
export type CompanySchedulesDTO = z.infer<typeof companySchedulesAnswerSchema>;

/**
 * A company as the super user's Empresas table and form read it (GET /companies, /companies/list,
 * GET/POST/PUT /companies/{id}); its own users read the same through GET /companies/{id}.
 * Dates: dueDate and trialExpiration are YYYY-MM-DD (null: none); createdAt an ISO timestamp.
 */
export const companySchema = z
  .object({
    id: rowId,
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    planId: rowId.nullable(),
    plan: z.object({ id: rowId, name: z.string() }).nullable(),
    status: z.boolean(),
    /** Kept as the company's `campaignsEnabled` setting. */
    campaignsEnabled: z.boolean(),
    dueDate: day.nullable(),
    recurrence: z.enum(RECURRENCES),
    /** The last day of a sign-up's trial; null for a company the super user created. */
    trialExpiration: day.nullable(),
    schedules: z.array(openingHoursDaySchema),
    settings: z.array(settingSchema),
    createdAt: timestamp,
  })
  .meta({
    id: "Company",
    description: "A company (a tenant) as the Empresas pages and its own users read it",
  });
export type CompanyDTO = z.infer<typeof companySchema>;

export const companiesPageSchema = pageOf("companies", companySchema).meta({ id: "CompaniesPage" });
export type CompaniesPage = z.infer<typeof companiesPageSchema>;

/**
 * GET /companies/listPlan/{companyId}: the company with its plan, as clients of this API family
 * read it to build their menu. A company without a plan gets a stand-in as the server enforces it:
 * `id` and `name` null, limits 0 (no limit), every feature off.
 */
export const companyPlanSchema = z
  .object({
    id: rowId,
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    status: z.boolean(),
    dueDate: day.nullable(),
    createdAt: timestamp,
    plan: planSchema.extend({ id: rowId.nullable(), name: z.string().nullable() }),
  })
  .meta({ id: "CompanyPlan", description: "A company with its plan, as clients build their menu from it" });
export type CompanyPlanDTO = z.infer<typeof companyPlanSchema>;

/**
 * A company as the session carries it (login, refresh, /auth/me): its settings (secrets as hints
 * only), its due date and trial, and its plan (null when it has none).
 */
export const sessionCompanySchema = z
  .object({
    id: rowId,
    name: z.string(),
    dueDate: day.nullable(),
    /** The last day of a sign-up's trial (YYYY-MM-DD); null when the company has none. */
    trialExpiration: day.nullable(),
    settings: z.array(settingSchema),
    plan: planSchema.nullable(),
  })
  .meta({ id: "SessionCompany", description: "The signed-in user's company, as the session carries it" });
export type SessionCompanyDTO = z.infer<typeof sessionCompanySchema>;
