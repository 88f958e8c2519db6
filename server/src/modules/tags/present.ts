import type { TagDTO } from "@atende/contracts";
import type { tags } from "../../db/schema/index.js";

export type TagRow = typeof tags.$inferSelect;

/** The one shape of a tag, for HTTP answers and the `company-{id}-tag` event alike. */
export function presentTag(row: TagRow, ticketsCount: number): TagDTO {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    kanban: row.kanban === 1 ? 1 : 0,
    userId: row.userId,
    ticketsCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
