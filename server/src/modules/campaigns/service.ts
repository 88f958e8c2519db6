import {
  type CampaignCreateInput,
  type CampaignDTO,
  type CampaignUpdateInput,
  type CampaignsPage,
  LIMITS,
  isCampaignEditable,
  mayCancelCampaign,
  mayRestartCampaign,
  mediaNameOf,
  parseSendAt,
} from "@atende/contracts";
import type { Tx } from "../../db/client.js";
import type { campaigns } from "../../db/schema/index.js";
import type { Deps } from "../../deps.js";
import type { CloudTemplatesService } from "../cloudTemplates/service.js";
import { type Raise, inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { UploadedFile } from "../../http/upload.js";
import { enqueueJob } from "../../jobs/runner.js";
import { requirePlanRoom } from "../plans/limits.js";
import { companyTimeZone } from "../settings/queries.js";
import { campaignPolicy } from "./policy.js";
import type { CampaignRow } from "./present.js";
import * as q from "./queries.js";
import { announceCampaign, startCampaign } from "./sender.js";
import * as s from "./shippings/queries.js";
import { filledVariants } from "./variables.js";

export type CampaignsDeps = Pick<Deps, "db" | "bus" | "now" | "media"> & {
  poke: () => void;
  /** Checks a Cloud API campaign's template against the connection's approved ones. */
  templates: Pick<CloudTemplatesService, "resolve">;
};

type Values = Partial<typeof campaigns.$inferInsert>;

/**
 * The campaigns' commands. A campaign with a scheduled time is PROGRAMADA and a durable job starts
 * it then (sender.ts); without one it stays INATIVA. Editable only when INATIVA, PROGRAMADA more
 * than an hour ahead, or CANCELADA; cancel from EM_ANDAMENTO (or PROGRAMADA), restart from CANCELADA.
 */
export function createCampaignsService({ db, bus, now, media, poke, templates }: CampaignsDeps) {
  async function campaignOf(actor: AuthContext, id: number): Promise<CampaignRow> {
    const row = await q.findCampaignRow(db, actor.companyId, id);
    if (!row) throw new AppError("ERR_CAMPAIGN_NOT_FOUND");
    campaignPolicy.manage(actor);
    return row;
  }

  const dto = (c: CampaignRow) => ({ status: c.status, scheduledAt: c.scheduledAt?.toISOString() ?? null });

  /** What a campaign points at must be the company's own. */
  async function checkLinks(companyId: number, input: CampaignCreateInput | CampaignUpdateInput) {
    if (input.whatsappId && !(await q.connectionOf(db, companyId, input.whatsappId)))
      throw new AppError("ERR_NO_WAPP_FOUND");
    if (input.tagListId && !(await q.tagExists(db, companyId, input.tagListId)))
      throw new AppError("ERR_NO_TAG_FOUND");
    if (input.contactListId && !(await q.contactListExists(db, companyId, input.contactListId)))
      throw new AppError("ERR_CAMPAIGN_CONTACT_LIST_NOT_FOUND");
    if (input.fileListId && !(await q.fileListExists(db, companyId, input.fileListId)))
      throw new AppError("ERR_CAMPAIGN_FILE_LIST_NOT_FOUND");
  }

  /** A campaign about to be scheduled or started must be able to send. */
  function requireSendable(c: CampaignRow) {
    if (filledVariants(c, "message").length === 0) throw new AppError("ERR_CAMPAIGN_NO_MESSAGE");
    if (c.confirmation && filledVariants(c, "confirmationMessage").length === 0)
      throw new AppError("ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE");
    if (!c.contactListId && !c.tagListId) throw new AppError("ERR_CAMPAIGN_NO_AUDIENCE");
    if (!c.whatsappId) throw new AppError("ERR_CAMPAIGN_NO_CONNECTION");
  }

  async function fieldsOf(
    companyId: number,
    input: CampaignCreateInput | CampaignUpdateInput,
    current?: CampaignRow,
  ): Promise<Values> {
    const v: Values = {};
    // The template is checked against the campaign's connection now, not when the first recipient needs it.
    if (input.template === null) v.template = null;
    else if (input.template) {
      const whatsappId = input.whatsappId ?? current?.whatsappId ?? null;
      if (!whatsappId) throw new AppError("ERR_CAMPAIGN_NO_CONNECTION");
      const { send, text } = await templates.resolve(companyId, whatsappId, input.template);
      v.template = { ...send, text };
    }
    for (const key of [
      "name",
      "message1",
      "message2",
      "message3",
      "message4",
      "message5",
      "confirmationMessage1",
      "confirmationMessage2",
      "confirmationMessage3",
      "confirmationMessage4",
      "confirmationMessage5",
      "confirmation",
      "whatsappId",
      "contactListId",
      "tagListId",
      "fileListId",
    ] as const)
      if (input[key] !== undefined) (v as Record<string, unknown>)[key] = input[key];
    if (input.scheduledAt !== undefined)
      v.scheduledAt = input.scheduledAt
        ? parseSendAt(input.scheduledAt, await companyTimeZone(db, companyId))
        : null;
    // One audience: a list, or a tag.
    if (input.contactListId) v.tagListId = null;
    else if (input.tagListId) v.contactListId = null;
    return v;
  }

  /** PROGRAMADA with its start job, or INATIVA without a time; checked sendable when scheduled. */
  async function schedule(tx: Tx, row: CampaignRow) {
    await q.dropPendingStartJobs(tx, row.companyId, row.id);
    if (!row.scheduledAt) {
      if (row.status === "PROGRAMADA")
        await q.updateCampaign(tx, row.companyId, row.id, { status: "INATIVA" });
      return;
    }
    requireSendable(row);
    if (row.status === "INATIVA") await q.updateCampaign(tx, row.companyId, row.id, { status: "PROGRAMADA" });
    await enqueueJob(tx, {
      type: q.START_CAMPAIGN_JOB,
      companyId: row.companyId,
      payload: { campaignId: row.id },
      runAt: row.scheduledAt,
      maxAttempts: 5,
    });
  }

  async function changed(tx: Tx, raise: Raise, companyId: number, id: number, action: "create" | "update") {
    return (await announceCampaign(tx, raise, companyId, id, action))!;
  }

  /** Saves fields of an editable campaign under its row lock. */
  async function change(
    actor: AuthContext,
    id: number,
    values: Values,
    reschedule: boolean,
  ): Promise<CampaignDTO> {
    const saved = await inTransaction(db, bus, async (tx, raise) => {
      const row = await q.lockCampaignRow(tx, actor.companyId, id);
      if (!row) throw new AppError("ERR_CAMPAIGN_NOT_FOUND");
      if (!isCampaignEditable(dto(row), now())) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
      const updated = (await q.updateCampaign(tx, actor.companyId, id, { ...values, updatedAt: now() }))!;
      if (reschedule && updated.status !== "CANCELADA") await schedule(tx, updated);
      return changed(tx, raise, actor.companyId, id, "update");
    });
    poke();
    return saved;
  }

  return {
    async page(
      actor: AuthContext,
      query: { searchParam: string; pageNumber: number },
    ): Promise<CampaignsPage> {
      return q.pageCampaigns(db, actor.companyId, { ...query, pageSize: LIMITS.pageSize });
    },

    async get(actor: AuthContext, id: number): Promise<CampaignDTO> {
      const c = await q.findCampaign(db, actor.companyId, id);
      if (!c) throw new AppError("ERR_CAMPAIGN_NOT_FOUND");
      campaignPolicy.manage(actor);
      return c;
    },

    async create(actor: AuthContext, input: CampaignCreateInput): Promise<CampaignDTO> {
      await checkLinks(actor.companyId, input);
      // Read before the transaction: on PGlite's one connection a read outside it would wait forever.
      const values = await fieldsOf(actor.companyId, input);
      const created = await inTransaction(db, bus, async (tx, raise) => {
        await requirePlanRoom(tx, actor.companyId, "campaigns", () => q.countCampaigns(tx, actor.companyId));
        const id = await q.insertCampaign(tx, actor.companyId, {
          ...values,
          name: input.name,
          status: "INATIVA",
          createdAt: now(),
          updatedAt: now(),
        });
        await schedule(tx, (await q.findCampaignRow(tx, actor.companyId, id))!);
        return changed(tx, raise, actor.companyId, id, "create");
      });
      poke();
      return created;
    },

    async update(actor: AuthContext, id: number, input: CampaignUpdateInput): Promise<CampaignDTO> {
      const current = await campaignOf(actor, id);
      await checkLinks(actor.companyId, input);
      return change(actor, id, await fieldsOf(actor.companyId, input, current), true);
    },

    /** Deleting stops it: its sender finds it gone before the next recipient. */
    async remove(actor: AuthContext, id: number): Promise<void> {
      await campaignOf(actor, id);
      await inTransaction(db, bus, async (tx, raise) => {
        await q.lockCampaignRow(tx, actor.companyId, id);
        await q.dropPendingStartJobs(tx, actor.companyId, id);
        if (await q.deleteCampaign(tx, actor.companyId, id))
          raise({ type: "campaign.changed", companyId: actor.companyId, payload: { action: "delete", id } });
      });
    },

    async cancel(actor: AuthContext, id: number): Promise<CampaignDTO> {
      await campaignOf(actor, id);
      return inTransaction(db, bus, async (tx, raise) => {
        // Waits for a send in flight (it holds the row shared); the next step then sees CANCELADA.
        const row = await q.lockCampaignRow(tx, actor.companyId, id);
        if (!row) throw new AppError("ERR_CAMPAIGN_NOT_FOUND");
        if (!mayCancelCampaign(row)) throw new AppError("ERR_CAMPAIGN_CANNOT_CANCEL");
        await q.dropPendingStartJobs(tx, actor.companyId, id);
        await q.updateCampaign(tx, actor.companyId, id, {
          status: "CANCELADA",
          pausedReason: null,
          updatedAt: now(),
        });
        return changed(tx, raise, actor.companyId, id, "update");
      });
    },

    /** CANCELADA → EM_ANDAMENTO: only the recipients not handed over yet are sent (and any new in the audience). */
    async restart(actor: AuthContext, id: number): Promise<CampaignDTO> {
      await campaignOf(actor, id);
      const restarted = await inTransaction(db, bus, async (tx, raise) => {
        const row = await q.lockCampaignRow(tx, actor.companyId, id);
        if (!row) throw new AppError("ERR_CAMPAIGN_NOT_FOUND");
        if (!mayRestartCampaign(row)) throw new AppError("ERR_CAMPAIGN_CANNOT_RESTART");
        requireSendable(row);
        await startCampaign(tx, raise, row, now());
        return (await q.findCampaign(tx, actor.companyId, id))!;
      });
      poke();
      return restarted;
    },

    async audience(actor: AuthContext, query: { contactListId?: number | null; tagListId?: number | null }) {
      return s.audienceCount(db, actor.companyId, query);
    },

    /** POST /campaigns/{id}/media-upload: a file sent with the message (its name's spaces as underscores). */
    async attachMedia(
      actor: AuthContext,
      id: number,
      read: () => Promise<UploadedFile>,
    ): Promise<CampaignDTO> {
      const row = await campaignOf(actor, id);
      if (!isCampaignEditable(dto(row), now())) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
      const file = await read();
      if (!file.data.length) throw new AppError("ERR_CAMPAIGN_NO_MEDIA");
      const stored = await media.save(actor.companyId, file.data, file.mimetype);
      return change(actor, id, { mediaPath: stored.path, mediaName: mediaNameOf(file.filename) }, false);
    },

    async removeMedia(actor: AuthContext, id: number): Promise<CampaignDTO> {
      await campaignOf(actor, id);
      return change(actor, id, { mediaPath: null, mediaName: null }, false);
    },
  };
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
