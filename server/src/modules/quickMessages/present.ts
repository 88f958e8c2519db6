import type { QuickMessageDTO } from "@atende/contracts";
import type { quickMessages } from "../../db/schema/index.js";

export type QuickMessageRow = typeof quickMessages.$inferSelect;

/** The one shape of a quick message, for HTTP answers and the `company-{id}-quickmessage` event alike. */
export function presentQuickMessage(row: QuickMessageRow, userName: string | null): QuickMessageDTO {
  return {
    id: row.id,
    shortcode: row.shortcode,
    message: row.message,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath ? `/media/${row.mediaPath}` : null,
    geral: row.geral,
    companyId: row.companyId,
    userId: row.userId,
    user: row.userId !== null && userName !== null ? { id: row.userId, name: userName } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
