import {
  LIMITS,
  type ListQuery,
  type QuickMessageCreateInput,
  type QuickMessageDTO,
  type QuickMessageUpdateInput,
  type QuickMessagesPage,
  mediaNameOf,
} from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { quickMessages } from "../../db/schema/index.js";
import type { Deps } from "../../deps.js";
import { type Raise, inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { UploadedFile } from "../../http/upload.js";
import { quickMessagePolicy } from "./policy.js";
import type { QuickMessageRow } from "./present.js";
import * as q from "./queries.js";

export type QuickMessagesDeps = Pick<Deps, "db" | "bus" | "now" | "media">;

const audienceOf = (row: Pick<QuickMessageRow, "geral" | "userId">) => ({
  geral: row.geral,
  userId: row.userId,
});

export function createQuickMessagesService({ db, bus, now, media }: QuickMessagesDeps) {
  /** A quick message of the caller's company that the caller may see (else 404). */
  async function visibleRow(actor: AuthContext, id: number): Promise<QuickMessageRow> {
    const row = await q.findQuickMessageRow(db, actor.companyId, id);
    if (!row) throw new AppError("ERR_NO_QUICK_MESSAGE_FOUND");
    quickMessagePolicy.see(actor, row);
    return row;
  }

  /** Writes a change of one quick message and tells whoever hears of it, after the commit. */
  async function change(
    actor: AuthContext,
    before: QuickMessageRow,
    values: Partial<typeof quickMessages.$inferInsert>,
  ): Promise<QuickMessageDTO> {
    return inTransaction(db, bus, async (tx, raise) => {
      const row = await q.updateQuickMessage(tx, actor.companyId, before.id, { ...values, updatedAt: now() });
      // Deleted by someone else meanwhile.
      if (!row) throw new AppError("ERR_NO_QUICK_MESSAGE_FOUND");
      return announce(tx, raise, actor.companyId, row, "update", before);
    });
  }

  async function announce(
    tx: Executor,
    raise: Raise,
    companyId: number,
    row: QuickMessageRow,
    action: "create" | "update",
    before?: QuickMessageRow,
  ): Promise<QuickMessageDTO> {
    const record = (await q.findQuickMessage(tx, companyId, row.id))!;
    raise({
      type: "quickMessage.changed",
      companyId,
      audience: audienceOf(row),
      previousAudience: before && before.geral !== row.geral ? audienceOf(before) : undefined,
      payload: { action, record },
    });
    return record;
  }

  return {
    /** GET /quick-messages: the page's list (admin and supervisor see all, others their own and the global ones). */
    page(actor: AuthContext, query: ListQuery): Promise<QuickMessagesPage> {
      return q.pageQuickMessages(
        db,
        actor.companyId,
        { userId: actor.userId, seesAll: quickMessagePolicy.seesAll(actor) },
        { ...query, pageSize: LIMITS.pageSize },
      );
    },

    /** GET /quick-messages/list: what the chat's '/' list offers the caller (companyId and userId come from the session). */
    list(actor: AuthContext): Promise<QuickMessageDTO[]> {
      return q.chatQuickMessages(db, actor.companyId, actor.userId);
    },

    async get(actor: AuthContext, id: number): Promise<QuickMessageDTO> {
      await visibleRow(actor, id);
      const record = await q.findQuickMessage(db, actor.companyId, id);
      if (!record) throw new AppError("ERR_NO_QUICK_MESSAGE_FOUND");
      return record;
    },

    async create(actor: AuthContext, input: QuickMessageCreateInput): Promise<QuickMessageDTO> {
      quickMessagePolicy.setGlobal(actor, false, input.geral);
      return inTransaction(db, bus, async (tx, raise) => {
        const row = await q.insertQuickMessage(tx, actor.companyId, {
          userId: actor.userId,
          shortcode: input.shortcode,
          message: input.message,
          geral: input.geral,
          createdAt: now(),
          updatedAt: now(),
        });
        return announce(tx, raise, actor.companyId, row, "create");
      });
    },

    async update(actor: AuthContext, id: number, input: QuickMessageUpdateInput): Promise<QuickMessageDTO> {
      const before = await visibleRow(actor, id);
      quickMessagePolicy.edit(actor, before);
      quickMessagePolicy.setGlobal(actor, before.geral, input.geral);
      return change(actor, before, {
        shortcode: input.shortcode,
        message: input.message,
        geral: input.geral,
      });
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      const before = await visibleRow(actor, id);
      quickMessagePolicy.edit(actor, before);
      await inTransaction(db, bus, async (tx, raise) => {
        const gone = await q.deleteQuickMessage(tx, actor.companyId, id);
        if (gone)
          raise({
            type: "quickMessage.changed",
            companyId: actor.companyId,
            audience: audienceOf(gone),
            payload: { action: "delete", id },
          });
      });
    },

    /** POST /quick-messages/{id}/media-upload: the attachment sent along when the chat uses it. */
    async attachMedia(
      actor: AuthContext,
      id: number,
      read: () => Promise<UploadedFile>,
    ): Promise<QuickMessageDTO> {
      const before = await visibleRow(actor, id);
      quickMessagePolicy.edit(actor, before);
      const file = await read();
      const stored = await media.save(actor.companyId, file.data, file.mimetype);
      return change(actor, before, { mediaPath: stored.path, mediaName: mediaNameOf(file.filename) });
    },

    async removeMedia(actor: AuthContext, id: number): Promise<QuickMessageDTO> {
      const before = await visibleRow(actor, id);
      quickMessagePolicy.edit(actor, before);
      return change(actor, before, { mediaPath: null, mediaName: null });
    },
  };
}

export type QuickMessagesService = ReturnType<typeof createQuickMessagesService>;
