import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client.js";

/** A node of an EXPLAIN (FORMAT JSON) answer, with what the plan tests read of it. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, depth first. */
export function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/**
 * How each read of `relation` goes: the index it goes through (a bitmap scan's are its children's),
 * or its node type when it goes through none ("Seq Scan").
 */
export function readsOf(plan: PlanNode, relation: string): string[] {
  return planNodes(plan)
    .filter((n) => n["Relation Name"] === relation)
    .flatMap((n) =>
      n["Node Type"] === "Bitmap Heap Scan"
        ? planNodes(n).flatMap((child) => child["Index Name"] ?? [])
        : [n["Index Name"] ?? n["Node Type"]],
    );
}

/** A literal of SQL for an EXECUTE's argument. */
const literal = (value: unknown) => (value === null ? "null" : `'${String(value).replace(/'/g, "''")}'`);

/**
 * The plan PostgreSQL picks for a statement, in a transaction that `settings` (`set local`, say
 * `enable_seqscan = off`) do not outlive. A query with its values is planned for them; a prepared
 * statement's text (`generic`) is planned as a pooled connection caches it for reuse, whatever its
 * arguments (`args`, one per parameter).
 */
export async function planOf(
  db: Db,
  statement: SQLWrapper | { generic: string; args: unknown[] },
  settings: string[] = [],
): Promise<PlanNode> {
  return db.transaction(async (tx) => {
    for (const setting of settings) await tx.execute(sql.raw(`set local ${setting}`));
    let explained: SQL;
    if ("generic" in statement) {
      await tx.execute(sql.raw(`prepare plan_probe as ${statement.generic}`));
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      explained = sql.raw(
        `explain (format json) execute plan_probe(${statement.args.map(literal).join(", ")})`,
      );
    } else explained = sql`explain (format json) ${statement}`;
    const [out] = await queryRows<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(tx, explained);
    if ("generic" in statement) await tx.execute(sql`deallocate plan_probe`);
    return out!["QUERY PLAN"][0].Plan;
  });
}
