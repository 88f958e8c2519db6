import { z } from "zod";
import { ALL_TICKET, type AllTicket, LIMITS, PROFILES, type Profile } from "./constants.js";
import type { PageAnswer } from "./lists.js";
import type { QueueDTO } from "./queues.js";
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

export interface UserDTO {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  companyId: number;
  super: boolean;
  online: boolean;
  allTicket: AllTicket;
  whatsappId: number | null;
  queues: QueueDTO[];
  createdAt: string;
  updatedAt: string;
}

export interface UsersPage extends PageAnswer {
  users: UserDTO[];
}

/**
 * A super user's account (the platform's) is changed, demoted or deleted by super users alone:
 * no admin of any company, the platform's own included, reaches it. Reading it is not changing it.
 */
export function mayChangeUser(actor: { super?: boolean }, target: { super: boolean }): boolean {
  return !target.super || actor.super === true;
}
