import { sql } from "drizzle-orm";
import type { LogoTarget } from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import { platformSetting, saveSetting } from "../settings/queries.js";

/**
 * The logos are platform settings (one per target, naming the stored file), kept on the platform
 * company like every platform setting: no companyId, a visitor reads them before logging in.
 */

const keyOf = (target: LogoTarget) => `logo-${target}`;

/** The platform company: the one the (first) super user belongs to, as platformSetting reads it. */
export async function platformCompanyId(db: Executor): Promise<number | null> {
  const [row] = await queryRows<{ company_id: number }>(
    db,
    sql`select company_id from users where super order by id limit 1`,
  );
  return row?.company_id ?? null;
}

/** The stored file name of the target's logo; undefined when none was uploaded. */
export async function logoFileOf(db: Executor, target: LogoTarget): Promise<string | undefined> {
  return (await platformSetting(db, keyOf(target))) || undefined;
}

/** Points the target at a new stored file (the caller holds the platform company's row lock). */
export async function saveLogoFile(
  db: Executor,
  platformId: number,
  target: LogoTarget,
  file: string,
  at: Date,
): Promise<void> {
  await saveSetting(db, platformId, keyOf(target), file, at);
}
