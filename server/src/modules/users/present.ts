import type { QueueDTO, UserDTO } from "@atende/contracts";
import type { users } from "../../db/schema/index.js";

export type UserRow = typeof users.$inferSelect;

/** The one shape of a user in answers and events; the password hash never leaves. */
export function presentUser(u: UserRow, queues: QueueDTO[]): UserDTO {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    profile: u.profile,
    companyId: u.companyId,
    super: u.super,
    online: u.online,
    allTicket: u.allTicket,
    whatsappId: u.whatsappId,
    queues,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}
