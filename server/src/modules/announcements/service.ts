import { fileTypeFromBuffer } from "file-type";
import {
  ANNOUNCEMENT_MEDIA_TYPES,
  ANNOUNCEMENT_POPOVER_MAX,
  type AnnouncementAdminDTO,
  type AnnouncementCreateInput,
  type AnnouncementDTO,
  type AnnouncementUpdateInput,
  type AnnouncementsPage,
  LIMITS,
  type ListQuery,
  type MyAnnouncements,
  mediaNameOf,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { UploadedFile } from "../../http/upload.js";
import { announcementPolicy } from "./policy.js";
import {
  type AnnouncementAudience,
  type AnnouncementRow,
  presentAdminAnnouncement,
  presentAnnouncement,
} from "./present.js";
import * as q from "./queries.js";

export type AnnouncementsDeps = Pick<Deps, "db" | "bus" | "now" | "media">;

/** The media store's folder of the platform's own files (no company has id 0). */
const PLATFORM_MEDIA = 0;

/** The live event of a saved announcement: shown while active, gone from the popovers when not. */
function savedPayload(row: AnnouncementRow, action: "create" | "update") {
  return row.status
    ? { action, record: presentAnnouncement(row) }
    : { action: "delete" as const, id: row.id };
}

/**
 * Announcements: the platform's messages to its companies. The super user writes them and reads
 * them all; everyone else reads the active ones addressed to their company, and marks when they
 * last opened the popover (its dot).
 */
export function createAnnouncementsService({ db, bus, now, media }: AnnouncementsDeps) {
  async function audienceFrom(
    input: { allCompanies?: boolean; companyIds?: number[] },
    before: AnnouncementAudience | null,
  ): Promise<AnnouncementAudience> {
    if (input.allCompanies === undefined) return before ?? { allCompanies: true, companyIds: [] };
    if (input.allCompanies) return { allCompanies: true, companyIds: [] };
    const wanted = [...new Set(input.companyIds ?? [])];
    const found = await q.existingCompanyIds(db, wanted);
    if (found.length !== wanted.length) throw new AppError("ERR_NO_COMPANY_FOUND");
    return { allCompanies: false, companyIds: found.sort((a, b) => a - b) };
  }

  async function admin(row: AnnouncementRow): Promise<AnnouncementAdminDTO> {
    return presentAdminAnnouncement(row, (await q.audienceOf(db, row)).companyIds);
  }

  async function existing(id: number): Promise<AnnouncementRow> {
    const row = await q.findAnnouncementRow(db, id);
    if (!row) throw new AppError("ERR_NO_ANNOUNCEMENT_FOUND");
    return row;
  }

  /** Saves a change of columns and tells who hears of it (the addressees, the same as before). */
  async function change(
    actor: AuthContext,
    before: AnnouncementRow,
    values: Partial<AnnouncementRow>,
  ): Promise<AnnouncementAdminDTO> {
    const audience = await q.audienceOf(db, before);
    const row = await inTransaction(db, bus, async (tx, raise) => {
      const saved = await q.updateAnnouncement(tx, before.id, { ...values, updatedAt: now() });
      if (!saved) throw new AppError("ERR_NO_ANNOUNCEMENT_FOUND");
      raise({
        type: "announcement.changed",
        companyId: actor.companyId,
        audience,
        payload: savedPayload(saved, "update"),
      });
      return saved;
    });
    return presentAdminAnnouncement(row, audience.companyIds);
  }

  return {
    /** GET /announcements/: every announcement for the super user; the caller's active ones otherwise. */
    async page(actor: AuthContext, query: ListQuery): Promise<AnnouncementsPage> {
      const all = announcementPolicy.readsAll(actor);
      const { rows, count } = await q.pageAnnouncements(db, all ? null : actor.companyId, {
        ...query,
        pageSize: LIMITS.pageSize,
      });
      const targets = all
        ? await q.companyIdsOf(
            db,
            rows.map((r) => r.id),
          )
        : null;
      return {
        records: rows.map((row) =>
          targets ? presentAdminAnnouncement(row, targets.get(row.id) ?? []) : presentAnnouncement(row),
        ),
        count,
        hasMore: query.pageNumber * LIMITS.pageSize < count,
      };
    },

    /** GET /announcements/for-me: the popover (active, addressed to the caller's company, newest first). */
    async forMe(actor: AuthContext): Promise<MyAnnouncements> {
      const [rows, seenAt] = await Promise.all([
        q.listForCompany(db, actor.companyId, ANNOUNCEMENT_POPOVER_MAX),
        q.seenAtOf(db, actor.companyId, actor.userId),
      ]);
      return { records: rows.map(presentAnnouncement), seenAt: seenAt?.toISOString() ?? null };
    },

    /** POST /announcements/seen: the caller opened the popover; the dot goes. */
    async markSeen(actor: AuthContext): Promise<{ seenAt: string }> {
      const at = now();
      await q.markAnnouncementsSeen(db, actor.companyId, actor.userId, at);
      return { seenAt: at.toISOString() };
    },

    /** GET /announcements/{id}: any for the super user; else only one the caller's popover shows. */
    async get(actor: AuthContext, id: number): Promise<AnnouncementDTO | AnnouncementAdminDTO> {
      if (announcementPolicy.readsAll(actor)) return admin(await existing(id));
      const row = await q.findVisibleAnnouncement(db, actor.companyId, id);
      if (!row) throw new AppError("ERR_NO_ANNOUNCEMENT_FOUND");
      return presentAnnouncement(row);
    },

    async create(actor: AuthContext, input: AnnouncementCreateInput): Promise<AnnouncementAdminDTO> {
      announcementPolicy.write(actor);
      const audience = await audienceFrom(input, null);
      const at = now();
      const row = await inTransaction(db, bus, async (tx, raise) => {
        const saved = await q.insertAnnouncement(tx, {
          title: input.title,
          text: input.text,
          priority: input.priority,
          status: input.status,
          allCompanies: audience.allCompanies,
          publishedAt: at,
          createdAt: at,
          updatedAt: at,
        });
        await q.setAnnouncementCompanies(tx, saved.id, audience.companyIds);
        // An inactive one is news to nobody yet.
        if (saved.status)
          raise({
            type: "announcement.changed",
            companyId: actor.companyId,
            audience,
            payload: savedPayload(saved, "create"),
          });
        return saved;
      });
      return presentAdminAnnouncement(row, audience.companyIds);
    },

    async update(
      actor: AuthContext,
      id: number,
      input: AnnouncementUpdateInput,
    ): Promise<AnnouncementAdminDTO> {
      announcementPolicy.write(actor);
      const before = await existing(id);
      const previous = await q.audienceOf(db, before);
      const audience = await audienceFrom(input, previous);
      const at = now();
      const { allCompanies: _all, companyIds: _ids, ...columns } = input;
      const row = await inTransaction(db, bus, async (tx, raise) => {
        const saved = await q.updateAnnouncement(tx, id, {
          ...columns,
          allCompanies: audience.allCompanies,
          // Made active again: new to everyone who had already looked.
          ...(input.status === true && !before.status ? { publishedAt: at } : {}),
          updatedAt: at,
        });
        if (!saved) throw new AppError("ERR_NO_ANNOUNCEMENT_FOUND");
        if (input.allCompanies !== undefined) await q.setAnnouncementCompanies(tx, id, audience.companyIds);
        // Inactive before and after: nobody saw it, nobody needs to hear of it.
        if (saved.status || before.status)
          raise({
            type: "announcement.changed",
            companyId: actor.companyId,
            audience,
            previousAudience: before.status ? previous : undefined,
            payload: savedPayload(saved, before.status ? "update" : "create"),
          });
        return saved;
      });
      return presentAdminAnnouncement(row, audience.companyIds);
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      announcementPolicy.write(actor);
      const before = await existing(id);
      const audience = await q.audienceOf(db, before);
      await inTransaction(db, bus, async (tx, raise) => {
        if (!(await q.deleteAnnouncement(tx, id))) throw new AppError("ERR_NO_ANNOUNCEMENT_FOUND");
        if (before.status)
          raise({
            type: "announcement.changed",
            companyId: actor.companyId,
            audience,
            payload: { action: "delete", id },
          });
      });
    },

    /** POST /announcements/{id}/media-upload: a PNG or JPEG picture, judged by its bytes. */
    async attachMedia(
      actor: AuthContext,
      id: number,
      readFile: () => Promise<UploadedFile>,
    ): Promise<AnnouncementAdminDTO> {
      announcementPolicy.write(actor);
      const before = await existing(id);
      const file = await readFile();
      const type = await fileTypeFromBuffer(file.data);
      if (!type || !(ANNOUNCEMENT_MEDIA_TYPES as readonly string[]).includes(type.mime))
        throw new AppError("ERR_ANNOUNCEMENT_MEDIA_TYPE");
      const stored = await media.save(PLATFORM_MEDIA, file.data, type.mime);
      return change(actor, before, { mediaPath: stored.path, mediaName: mediaNameOf(file.filename) });
    },

    /** DELETE /announcements/{id}/media-upload: the attachment goes. */
    async removeMedia(actor: AuthContext, id: number): Promise<AnnouncementAdminDTO> {
      announcementPolicy.write(actor);
      return change(actor, await existing(id), { mediaPath: null, mediaName: null });
    },

    /** GET /announcements/{id}/media: the picture, to whoever may read the announcement. */
    async readMedia(actor: AuthContext, id: number): Promise<{ data: Buffer; mimetype: string }> {
      const row = announcementPolicy.readsAll(actor)
        ? await q.findAnnouncementRow(db, id)
        : await q.findVisibleAnnouncement(db, actor.companyId, id);
      const data = row?.mediaPath ? await media.read(PLATFORM_MEDIA, row.mediaPath) : null;
      if (!row || !data) throw new AppError("ERR_NOT_FOUND");
      return { data, mimetype: row.mediaPath!.endsWith(".png") ? "image/png" : "image/jpeg" };
    },
  };
}

export type AnnouncementsService = ReturnType<typeof createAnnouncementsService>;
