import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { idValue, sizedText } from "./validation.js";

/**
 * Announcements from the platform (back-office sections 2, 3 and 9): the super user writes them on
 * /announcements; every user sees the active ones addressed to their company in the top-bar popover.
 * Beyond the spec, one goes to every company or only to chosen ones, and each user's popover shows
 * a dot until they open it.
 */

/** 1 high (red), 2 medium (orange), 3 low (grey). */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export const ANNOUNCEMENT_DEFAULT_PRIORITY: AnnouncementPriority = 3;
/** The attachment's types, checked on the file's content (spec section 5: png, jpg, jpeg). */
export const ANNOUNCEMENT_MEDIA_TYPES = ["image/png", "image/jpeg"] as const;
export const ANNOUNCEMENT_MEDIA_ACCEPT = ".png,.jpg,.jpeg,image/png,image/jpeg";
export const ANNOUNCEMENT_TITLE = { min: 1, max: 200 } as const;
export const ANNOUNCEMENT_TEXT_MAX = 5000;
/** How many active announcements the popover lists (newest first). */
export const ANNOUNCEMENT_POPOVER_MAX = 50;
/** How many companies one announcement may be addressed to by name. */
export const ANNOUNCEMENT_COMPANIES_MAX = 500;

/** An announcement as every user reads it. */
export const announcementSchema = z
  .object({
    id: rowId,
    title: z.string(),
    text: z.string(),
    /** 1 high (red), 2 medium (orange), 3 low (grey). */
    priority: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    /** Active (true) or inactive. */
    status: z.boolean(),
    mediaPath: z.string().nullable(),
    mediaName: z.string().nullable(),
    /** Where the attachment is read (with the session): GET /announcements/{id}/media; null without one. */
    mediaUrl: z.string().nullable(),
    /** When it was created, or last made active again: what the popover's dot compares. */
    publishedAt: timestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Announcement", description: "An announcement from the platform, as every user reads it" });
export type AnnouncementDTO = z.infer<typeof announcementSchema>;

/** What the super user reads besides: whom it is addressed to. */
export const announcementAdminSchema = announcementSchema
  .extend({
    /** Every company; else only `companyIds`. */
    allCompanies: z.boolean(),
    companyIds: z.array(rowId),
  })
  .meta({
    id: "AnnouncementAdmin",
    description: "An announcement with its addressees, as the super user reads it",
  });
export type AnnouncementAdminDTO = z.infer<typeof announcementAdminSchema>;

/**
 * One announcement as GET /announcements/{id} answers it: with its addressees for the super user.
 * The richer form comes first: a union takes the first that fits, and the plainer one would drop them.
 */
export const announcementAnswerSchema = z.union([announcementAdminSchema, announcementSchema]);

/** GET /announcements/: the super user's page (every announcement), or the caller's active ones. */
export const announcementsPageSchema = pageOf("records", announcementAnswerSchema).meta({
  id: "AnnouncementsPage",
});
export type AnnouncementsPage = z.infer<typeof announcementsPageSchema>;

/** GET /announcements/for-me: the popover's list, and when the caller last opened it. */
export const myAnnouncementsSchema = z
  .object({ records: z.array(announcementSchema), seenAt: timestamp.nullable() })
  .meta({
    id: "MyAnnouncements",
    description: "The popover's announcements and when the caller last opened it",
  });
export type MyAnnouncements = z.infer<typeof myAnnouncementsSchema>;

/** The popover's dot: something published since the user last opened it. */
export function hasUnseenAnnouncement(
  records: Pick<AnnouncementDTO, "publishedAt">[],
  seenAt: string | null,
) {
  if (records.length === 0) return false;
  if (seenAt === null) return true;
  const seen = Date.parse(seenAt);
  return records.some((r) => Date.parse(r.publishedAt) > seen);
}

/**
 * `company-announcement`, as clients of this API family hear it: a created, changed or re-activated
 * one as `record`; a deleted one, or one that left the listener's view (made inactive, or no longer
 * addressed to their company), as `id`. Sent only to the companies it is (or was) addressed to.
 */
export type AnnouncementEventPayload =
  { action: "create" | "update"; record: AnnouncementDTO } | { action: "delete"; id: number };

/** The server events of announcements (merged into ServerToClientEvents). */
export interface AnnouncementServerEvents {
  "company-announcement": (payload: AnnouncementEventPayload) => void;
}

/** 1, 2, 3, or the same as text (form fields). */
const priorityField = z.preprocess(
  (v) => (typeof v === "string" && /^[123]$/.test(v.trim()) ? Number(v) : v),
  z.union([z.literal(1), z.literal(2), z.literal(3)], { error: "validation.invalid" }),
);

/** A boolean, or "true"/"false", "active"/"inactive" (the forms of clients of this API family). */
const statusField = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const text = v.trim().toLowerCase();
    if (text === "true" || text === "active") return true;
    if (text === "false" || text === "inactive") return false;
    return v;
  },
  z.boolean({ error: "validation.invalid" }),
);

const allCompaniesField = z.boolean({ error: "validation.invalid" });
const companyIdsField = z.array(idValue).max(ANNOUNCEMENT_COMPANIES_MAX, "validation.tooLong");

export const announcementTitleField = sizedText(ANNOUNCEMENT_TITLE.min, ANNOUNCEMENT_TITLE.max);
export const announcementTextField = sizedText(1, ANNOUNCEMENT_TEXT_MAX);

/** Chosen companies must name at least one. */
function targetsNamed(v: { allCompanies?: boolean; companyIds?: number[] }, ctx: z.RefinementCtx) {
  if (v.allCompanies === false && (v.companyIds ?? []).length === 0)
    ctx.addIssue({ code: "custom", path: ["companyIds"], message: "validation.required" });
}

/** POST /announcements. */
export const announcementCreateSchema = z
  .object({
    title: announcementTitleField,
    text: announcementTextField,
    priority: priorityField.optional().default(ANNOUNCEMENT_DEFAULT_PRIORITY),
    status: statusField.optional().default(true),
    allCompanies: allCompaniesField.optional().default(true),
    companyIds: companyIdsField.optional().default([]),
  })
  .superRefine(targetsNamed);
export type AnnouncementCreateInput = z.infer<typeof announcementCreateSchema>;

/**
 * PUT /announcements/{id}: a field left out keeps its value. The addressees change only when
 * `allCompanies` is sent (with `companyIds` when it is false).
 */
export const announcementUpdateSchema = z
  .object({
    title: announcementTitleField.optional(),
    text: announcementTextField.optional(),
    priority: priorityField.optional(),
    status: statusField.optional(),
    allCompanies: allCompaniesField.optional(),
    companyIds: companyIdsField.optional(),
  })
  .superRefine(targetsNamed);
export type AnnouncementUpdateInput = z.infer<typeof announcementUpdateSchema>;
