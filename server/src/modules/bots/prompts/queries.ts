import { and, asc, count, eq, gte, ilike, sql } from "drizzle-orm";
import type { TokenCounts } from "@atende/contracts";
import type { Executor } from "../../../db/client.js";
import { aiTokenUsage, prompts, queues } from "../../../db/schema/index.js";

export type PromptRow = typeof prompts.$inferSelect;
export type PromptValues = Omit<typeof prompts.$inferInsert, "id" | "companyId">;
export interface PromptWithQueue {
  prompt: PromptRow;
  queue: { id: number; name: string } | null;
}

/** Every helper takes the caller's companyId first: another company's prompt is simply not found. */

const withQueue = { prompt: prompts, queueId: queues.id, queueName: queues.name };
type Joined = { prompt: PromptRow; queueId: number | null; queueName: string | null };
const shape = (r: Joined): PromptWithQueue => ({
  prompt: r.prompt,
  queue: r.queueId === null ? null : { id: r.queueId, name: r.queueName ?? "" },
});

export async function findPrompt(
  db: Executor,
  companyId: number,
  id: number,
): Promise<PromptWithQueue | null> {
  const [row] = await db
    .select(withQueue)
    .from(prompts)
    .leftJoin(queues, eq(queues.id, prompts.queueId))
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)));
  return row ? shape(row) : null;
}

/** GET /prompt: name search, alphabetical, a page at a time (as this API family answers it). */
export async function pagePrompts(
  db: Executor,
  companyId: number,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<{ rows: PromptWithQueue[]; count: number; hasMore: boolean }> {
  const term = `%${opts.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = opts.searchParam
    ? and(eq(prompts.companyId, companyId), ilike(prompts.name, term))
    : eq(prompts.companyId, companyId);
  const [total] = await db.select({ n: count() }).from(prompts).where(where);
  const rows = await db
    .select(withQueue)
    .from(prompts)
    .leftJoin(queues, eq(queues.id, prompts.queueId))
    .where(where)
    .orderBy(asc(prompts.name), asc(prompts.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  const n = Number(total?.n ?? 0);
  return { rows: rows.map(shape), count: n, hasMore: opts.pageNumber * opts.pageSize < n };
}

export async function insertPrompt(db: Executor, companyId: number, values: PromptValues): Promise<number> {
  const [row] = await db
    .insert(prompts)
    .values({ ...values, companyId })
    .returning({ id: prompts.id });
  return row!.id;
}

export async function updatePrompt(
  db: Executor,
  companyId: number,
  id: number,
  values: Partial<PromptValues>,
): Promise<boolean> {
  const done = await db
    .update(prompts)
    .set(values)
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)))
    .returning({ id: prompts.id });
  return done.length > 0;
}

/** Queues, connections pointing at it drop the link (on delete set null). */
export async function deletePrompt(db: Executor, companyId: number, id: number): Promise<boolean> {
  const gone = await db
    .delete(prompts)
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)))
    .returning({ id: prompts.id });
  return gone.length > 0;
}

const zero: TokenCounts = { promptTokens: 0, completionTokens: 0, totalTokens: 0, requests: 0 };

async function usageSince(db: Executor, companyId: number, since: string | null): Promise<TokenCounts> {
  const [row] = await db
    .select({
      promptTokens: sql<number>`coalesce(sum(${aiTokenUsage.promptTokens}), 0)::int`,
      completionTokens: sql<number>`coalesce(sum(${aiTokenUsage.completionTokens}), 0)::int`,
      totalTokens: sql<number>`coalesce(sum(${aiTokenUsage.totalTokens}), 0)::int`,
      requests: sql<number>`coalesce(sum(${aiTokenUsage.requests}), 0)::int`,
    })
    .from(aiTokenUsage)
    .where(and(eq(aiTokenUsage.companyId, companyId), since ? gte(aiTokenUsage.day, since) : undefined));
  return row ? { ...zero, ...row } : zero;
}

/** The company's AI tokens since `monthStart` (YYYY-MM-DD) and all time. */
export async function tokenUsage(db: Executor, companyId: number, monthStart: string) {
  return { month: await usageSince(db, companyId, monthStart), total: await usageSince(db, companyId, null) };
}

/**
 * Counts tokens a call to the AI provider used: on the company's day (UTC) and, when a prompt made
 * the call, on the prompt. For the bot runtime.
 */
export async function recordTokenUsage(
  db: Executor,
  companyId: number,
  promptId: number | null,
  used: Omit<TokenCounts, "requests">,
  day: string,
): Promise<void> {
  await db
    .insert(aiTokenUsage)
    .values({ companyId, day, ...used, requests: 1 })
    .onConflictDoUpdate({
      target: [aiTokenUsage.companyId, aiTokenUsage.day],
      set: {
        promptTokens: sql`${aiTokenUsage.promptTokens} + ${used.promptTokens}`,
        completionTokens: sql`${aiTokenUsage.completionTokens} + ${used.completionTokens}`,
        totalTokens: sql`${aiTokenUsage.totalTokens} + ${used.totalTokens}`,
        requests: sql`${aiTokenUsage.requests} + 1`,
      },
    });
  if (promptId === null) return;
  await db
    .update(prompts)
    .set({
      promptTokens: sql`${prompts.promptTokens} + ${used.promptTokens}`,
      completionTokens: sql`${prompts.completionTokens} + ${used.completionTokens}`,
      totalTokens: sql`${prompts.totalTokens} + ${used.totalTokens}`,
    })
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, promptId)));
}

/** Whether the queue is one of the company's. */
export async function companyHasQueue(db: Executor, companyId: number, queueId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
  return row !== undefined;
}
