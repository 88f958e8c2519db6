import {
  userCreateSchema,
  userUpdateSchema,
  type AllTicket,
  type Profile,
  type UserDTO,
  type UserUpdateInput,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import type { Resolver } from "react-hook-form";
import type { UserPayload } from "../../api/users";

export interface UserFormValues {
  name: string;
  email: string;
  /** Empty on edit means "keep the current password". */
  password: string;
  /** The current password: asked when users change their own. */
  oldPassword: string;
  profile: Profile;
  queueIds: number[];
  whatsappId: number | null;
  allTicket: AllTicket;
}

const USER_FORM_FIELDS: readonly (keyof UserFormValues)[] = [
  "name",
  "email",
  "password",
  "oldPassword",
  "profile",
  "queueIds",
  "whatsappId",
  "allTicket",
];

export function initialValues(user: UserDTO | null): UserFormValues {
  return {
    name: user?.name ?? "",
    email: user?.email ?? "",
    password: "",
    oldPassword: "",
    profile: user?.profile ?? "user",
    queueIds: user?.queues.map((queue) => queue.id) ?? [],
    whatsappId: user?.whatsappId ?? null,
    allTicket: user?.allTicket ?? "desabled",
  };
}

type UserFormResolver = Resolver<UserFormValues, unknown, UserUpdateInput>;

// Both contracts schemas read these same form values. Their zod input types differ from the form's
// only in optionality (and the update schema's preprocessed password), which nothing here relies on.
const createResolver = zodResolver(userCreateSchema) as unknown as UserFormResolver;
const updateResolver = zodResolver(userUpdateSchema) as unknown as UserFormResolver;

/** A password is required on create and optional on edit (empty keeps the current one). */
export function userFormResolver(creating: boolean): UserFormResolver {
  return creating ? createResolver : updateResolver;
}

export interface EditRights {
  /** Profile, default connection and allTicket (user-modal:editProfile). */
  profile: boolean;
  /** Queues (user-modal:editQueues). */
  queues: boolean;
}

/** Sends only what the editor may change: the server refuses the rest from a non-admin. */
export function toPayload(values: UserUpdateInput, rights: EditRights): UserPayload {
  const payload: UserPayload = { name: values.name ?? "", email: values.email ?? "" };
  if (values.password) payload.password = values.password;
  if (values.password && values.oldPassword) payload.oldPassword = values.oldPassword;
  if (rights.profile) {
    payload.profile = values.profile;
    payload.whatsappId = values.whatsappId ?? null;
    payload.allTicket = values.allTicket;
  }
  if (rights.queues) payload.queueIds = values.queueIds;
  return payload;
}

/** Maps the server's field paths ("queueIds.0") onto the form's fields. */
export function formFieldOf(path: string): keyof UserFormValues | undefined {
  const head = path.split(".")[0];
  return USER_FORM_FIELDS.find((field) => field === head);
}
