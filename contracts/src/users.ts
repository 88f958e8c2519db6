import { z } from "zod";
import { ALL_TICKET, LIMITS, PROFILES } from "./constants.js";
import { pageOf, rowId, timestamp } from "./answers.js";
import { dbId, emailField, optionalEmpty, sizedText } from "./validation.js";

const password = z
  .string({ error: "validation.required" })
  .min(1, { error: "validation.required", abort: true })
  .min(LIMITS.userPassword.min, "validation.tooShort")
  .max(LIMITS.userPassword.max, "validation.tooLong");

/** An empty password field in an edit form means "keep the current one". */
const optionalPassword = optionalEmpty(password);
/** The user's default connection; the dialog's empty select (false, "" or null): none. */
const whatsappIdField = optionalEmpty(dbId, null);

const userFields = {
  name: sizedText(LIMITS.userName.min, LIMITS.userName.max),
  email: emailField,
  profile: z.enum(PROFILES, "validation.invalid"),
  queueIds: z.array(dbId).max(200),
  allTicket: z.enum(ALL_TICKET, "validation.invalid"),
};

export const userCreateSchema = z.object({
  name: userFields.name,
  email: userFields.email,
  password,
  profile: userFields.profile.default("user"),
  queueIds: userFields.queueIds.default([]),
  whatsappId: whatsappIdField,
  allTicket: userFields.allTicket.default("desabled"),
});
export type UserCreateInput = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z.object({
  name: userFields.name.optional(),
  email: userFields.email.optional(),
  password: optionalPassword,
  /** The current password: required when users change their own password. */
  oldPassword: optionalEmpty(z.string().max(200)),
  profile: userFields.profile.optional(),
  queueIds: userFields.queueIds.optional(),
  whatsappId: whatsappIdField,
  allTicket: userFields.allTicket.optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

/**
 * A queue as a user carries it: queues.ts's QueueDTO (`{ id, name, color }`), declared here
 * unnamed because that file belongs to another part of the API; the same shape either way.
 */
const userQueueSchema = z.object({ id: rowId, name: z.string(), color: z.string() });

/** A user as every answer and the `company-{id}-user` event carry it; never the password's hash. */
export const userSchema = z
  .object({
    id: rowId,
    name: z.string(),
    email: z.string(),
    profile: z.enum(PROFILES),
    companyId: rowId,
    /** The platform's super user. */
    super: z.boolean(),
    online: z.boolean(),
    /** "enabled": also sees tickets without a queue ("desabled", sic, is what clients of this API family send). */
    allTicket: z.enum(ALL_TICKET),
    /** The user's default connection; null when none. */
    whatsappId: rowId.nullable(),
    queues: z.array(userQueueSchema),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "User", description: "A user of a company, as every answer and the user event carry it" });
export type UserDTO = z.infer<typeof userSchema>;

/** GET /users: a page of the users table. */
export const usersPageSchema = pageOf("users", userSchema).meta({ id: "UsersPage" });
export type UsersPage = z.infer<typeof usersPageSchema>;

/**
 * A super user's account (the platform's) is changed, demoted or deleted by super users alone:
 * no admin of any company, the platform's own included, reaches it. Reading it is not changing it.
 */
export function mayChangeUser(actor: { super?: boolean }, target: { super: boolean }): boolean {
  return !target.super || actor.super === true;
}
