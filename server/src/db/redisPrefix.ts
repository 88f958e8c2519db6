import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import type { Config } from "../config.js";
import { type Db, queryRows } from "./client.js";
import { deployment } from "./schema/index.js";

/**
 * The prefix of every key and channel this deployment uses in Redis, so that two deployments on one
 * Redis (staging beside production) never hear each other: REDIS_PREFIX, or one derived from the
 * database. Instances of one deployment share a database, hence the prefix; two databases never do:
 * the derivation mixes the database's random key (written at its first start), its name and its
 * cluster's identifier, so a copy restored from a dump elsewhere still gets its own.
 */
export async function redisPrefix(config: Pick<Config, "REDIS_PREFIX">, db: Db): Promise<string> {
  if (config.REDIS_PREFIX) return config.REDIS_PREFIX;
  await db.insert(deployment).values({ key: crypto.randomUUID() }).onConflictDoNothing();
  const [row] = await db.select({ key: deployment.key }).from(deployment);
  const [where] = await queryRows<{ name: string; cluster: string | null }>(
    db,
    sql`select current_database() as name, (select system_identifier::text from pg_control_system()) as cluster`,
  ).catch(() => [{ name: "", cluster: null }]);
  const digest = crypto
    .createHash("sha256")
    .update(`${row!.key}|${where?.name ?? ""}|${where?.cluster ?? ""}`)
    .digest("hex");
  return `atende:${digest.slice(0, 16)}`;
}
