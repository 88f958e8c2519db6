import { and, asc, count, desc, eq, ilike, ne, sql } from "drizzle-orm";
import type { CampaignDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import {
  campaignSettings,
  campaigns,
  contactLists,
  fileListOptions as fileOptions,
  fileLists,
  tags,
  whatsapps,
} from "../../db/schema/index.js";
import { type CampaignRow, presentCampaign } from "./present.js";

/** Campaign rows and their settings; every statement scoped by the company. */

export const START_CAMPAIGN_JOB = "campaign-start";
export const STEP_CAMPAIGN_JOB = "campaign-step";
export const CONFIRM_CAMPAIGN_JOB = "campaign-confirm";
export const CONFIRM_TIMEOUT_CAMPAIGN_JOB = "campaign-confirm-timeout";

function joined(db: Executor) {
  return db
    .select({
      c: campaigns,
      whatsappName: whatsapps.name,
      tagName: tags.name,
      listName: contactLists.name,
    })
    .from(campaigns)
    .leftJoin(whatsapps, eq(whatsapps.id, campaigns.whatsappId))
    .leftJoin(tags, eq(tags.id, campaigns.tagListId))
    .leftJoin(contactLists, eq(contactLists.id, campaigns.contactListId));
}

type Joined = Awaited<ReturnType<ReturnType<typeof joined>["where"]>>[number];
const present = (r: Joined) => presentCampaign(r.c, r.whatsappName, r.listName, r.tagName);

export async function findCampaign(db: Executor, companyId: number, id: number): Promise<CampaignDTO | null> {
  const [row] = await joined(db).where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)));
  return row ? present(row) : null;
}

export async function findCampaignRow(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)));
  return row ?? null;
}

/** The row under an update lock: edits, cancel, restart and the sender's start take it. */
export async function lockCampaignRow(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)))
    .for("update");
  return row ?? null;
}

/** The row under a share lock: a send holds it, so a cancel waits for the send in flight and then stops the next. */
export async function shareCampaignRow(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)))
    .for("share");
  return row ?? null;
}

export async function pageCampaigns(
  db: Executor,
  companyId: number,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
) {
  const where = and(
    eq(campaigns.companyId, companyId),
    opts.searchParam ? ilike(campaigns.name, `%${opts.searchParam.replace(/[%_\\]/g, "\\$&")}%`) : undefined,
  );
  const [{ n }] = (await db.select({ n: count() }).from(campaigns).where(where)) as [{ n: number }];
  const rows = await joined(db)
    .where(where)
    .orderBy(desc(campaigns.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  return { records: rows.map(present), count: n, hasMore: opts.pageNumber * opts.pageSize < n };
}

export async function countCampaigns(db: Executor, companyId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(campaigns).where(eq(campaigns.companyId, companyId));
  return row?.n ?? 0;
}

export async function insertCampaign(
  db: Executor,
  companyId: number,
  values: Omit<typeof campaigns.$inferInsert, "companyId">,
): Promise<number> {
  const [row] = await db
    .insert(campaigns)
    .values({ ...values, companyId })
    .returning({ id: campaigns.id });
  return row!.id;
}

export async function updateCampaign(
  db: Executor,
  companyId: number,
  id: number,
  values: Partial<typeof campaigns.$inferInsert>,
): Promise<CampaignRow | null> {
  const [row] = await db
    .update(campaigns)
    .set(values)
    .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteCampaign(db: Executor, companyId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(campaigns)
    .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)))
    .returning({ id: campaigns.id });
  return rows.length > 0;
}

/** The start jobs still waiting for a campaign (dropped when its time changes or it is cancelled). */
export async function dropPendingStartJobs(db: Executor, companyId: number, campaignId: number) {
  await db.execute(sql`delete from jobs where company_id = ${companyId} and type = ${START_CAMPAIGN_JOB}
    and status = 'pending' and (payload->>'campaignId')::int = ${campaignId}`);
}

// ---- what a campaign points at

export async function connectionOf(db: Executor, companyId: number, whatsappId: number) {
  const [row] = await db
    .select({
      id: whatsapps.id,
      status: whatsapps.status,
      name: whatsapps.name,
      provider: whatsapps.provider,
    })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)));
  return row ?? null;
}

export async function tagExists(db: Executor, companyId: number, tagId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.id, tagId)));
  return !!row;
}

/** contact_lists and files belong to the lists module; read here by id within the company. */
export async function contactListExists(db: Executor, companyId: number, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)));
  return !!row;
}

export async function fileListExists(db: Executor, companyId: number, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: fileLists.id })
    .from(fileLists)
    .where(and(eq(fileLists.companyId, companyId), eq(fileLists.id, id)));
  return !!row;
}

/** The uploaded files of a file list, in order (sent after the campaign message). */
export async function fileListOptions(db: Executor, companyId: number, fileListId: number) {
  return db
    .select({ name: fileOptions.name, path: fileOptions.path, mediaType: fileOptions.mediaType })
    .from(fileOptions)
    .where(
      and(eq(fileOptions.companyId, companyId), eq(fileOptions.fileId, fileListId), ne(fileOptions.path, "")),
    )
    .orderBy(asc(fileOptions.id));
}

// ---- settings

export async function settingRows(db: Executor, companyId: number) {
  return db
    .select({
      id: campaignSettings.id,
      key: campaignSettings.key,
      value: campaignSettings.value,
      companyId: campaignSettings.companyId,
    })
    .from(campaignSettings)
    .where(eq(campaignSettings.companyId, companyId))
    .orderBy(campaignSettings.id);
}

export async function saveSettingRow(db: Executor, companyId: number, key: string, value: string, at: Date) {
  await db
    .insert(campaignSettings)
    .values({ companyId, key, value, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [campaignSettings.companyId, campaignSettings.key],
      set: { value, updatedAt: at },
    });
}
