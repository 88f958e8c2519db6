import { z } from "zod";
import { ALL_TICKET, LIMITS, PROFILES } from "./constants.js";
import { isCalendarDate } from "./dashboard.js";
import { dbId, emailField, pageNumber, searchText, sizedText } from "./validation.js";

export const loginSchema = z.object({
  email: emailField,
  password: z
    .string({ error: "validation.required" })
    .min(1, { error: "validation.required", abort: true })
    .max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

const password = z
  .string({ error: "validation.required" })
  .min(1, { error: "validation.required", abort: true })
  .min(LIMITS.userPassword.min, "validation.tooShort")
  .max(LIMITS.userPassword.max, "validation.tooLong");

/** An empty password field in an edit form means "keep the current one". */
const optionalPassword = z.preprocess((v) => (v === "" || v === null ? undefined : v), password.optional());

const userFields = {
  name: sizedText(LIMITS.userName.min, LIMITS.userName.max),
  email: emailField,
  profile: z.enum(PROFILES, "validation.invalid"),
  queueIds: z.array(dbId).max(200),
  whatsappId: dbId.nullable(),
  allTicket: z.enum(ALL_TICKET, "validation.invalid"),
};

export const userCreateSchema = z.object({
  name: userFields.name,
  email: userFields.email,
  password,
  profile: userFields.profile.default("user"),
  queueIds: userFields.queueIds.default([]),
  whatsappId: userFields.whatsappId.optional(),
  allTicket: userFields.allTicket.default("desabled"),
});
export type UserCreateInput = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z.object({
  name: userFields.name.optional(),
  email: userFields.email.optional(),
  password: optionalPassword,
  /** The current password: required when users change their own password. */
  oldPassword: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().max(200).optional()),
  profile: userFields.profile.optional(),
  queueIds: userFields.queueIds.optional(),
  whatsappId: userFields.whatsappId.optional(),
  allTicket: userFields.allTicket.optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

/**
 * A company's standing as the super user sets it (PUT /companies/{id}): active or not, and the due
 * date (YYYY-MM-DD, null for none). The rest of the company form comes with the platform's pages.
 */
export const companyStandingSchema = z.object({
  status: z.boolean("validation.invalid").optional(),
  dueDate: z.string("validation.invalid").refine(isCalendarDate, "validation.invalid").nullable().optional(),
});
export type CompanyStandingInput = z.infer<typeof companyStandingSchema>;

export const listQuerySchema = z.object({
  searchParam: searchText(100),
  pageNumber,
});
export type ListQuery = z.infer<typeof listQuerySchema>;
