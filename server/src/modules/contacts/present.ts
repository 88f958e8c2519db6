import type { ContactDTO } from "@atende/contracts";
import type { contacts } from "../../db/schema/index.js";

export type ContactRow = typeof contacts.$inferSelect;

export function presentContact(c: ContactRow, extraInfo: ContactDTO["extraInfo"] = []): ContactDTO {
  return {
    id: c.id,
    name: c.name,
    number: c.number,
    email: c.email,
    profilePicUrl: c.profilePicUrl,
    isGroup: c.isGroup,
    extraInfo,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
