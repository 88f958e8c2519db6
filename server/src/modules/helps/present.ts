import type { HelpDTO } from "@atende/contracts";
import type { helps } from "../../db/schema/index.js";

export type HelpRow = typeof helps.$inferSelect;

/** The one shape of a help video, for every answer. */
export function presentHelp(row: HelpRow): HelpDTO {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    video: row.video,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
