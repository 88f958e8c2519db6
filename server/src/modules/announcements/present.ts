import type { AnnouncementAdminDTO, AnnouncementDTO, AnnouncementPriority } from "@atende/contracts";
import type { announcements } from "../../db/schema/index.js";

export type AnnouncementRow = typeof announcements.$inferSelect;

/** Whom an announcement goes to: every company, or only the chosen ones. */
export interface AnnouncementAudience {
  allCompanies: boolean;
  companyIds: number[];
}

/** The one shape of an announcement as every user reads it (answers and the socket alike). */
export function presentAnnouncement(row: AnnouncementRow): AnnouncementDTO {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    priority: row.priority as AnnouncementPriority,
    status: row.status,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath ? `/announcements/${row.id}/media` : null,
    publishedAt: row.publishedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the super user reads: the same, with its addressees. */
export function presentAdminAnnouncement(row: AnnouncementRow, companyIds: number[]): AnnouncementAdminDTO {
  return {
    ...presentAnnouncement(row),
    allCompanies: row.allCompanies,
    companyIds: row.allCompanies ? [] : [...companyIds].sort((a, b) => a - b),
  };
}
