import { and, asc, eq, inArray, ne, notLike, sql } from "drizzle-orm";
import { DEFAULT_TIMEZONE, isValidTimeZone } from "@atende/contracts";
import { SEALED_PREFIX } from "../../lib/secretBox.js";
import { type Executor, queryRows } from "../../db/client.js";
import { companies, settings } from "../../db/schema/index.js";
import { settingsWithDefaults } from "./present.js";

/**
 * The one place a company's settings are read: every module asks here rather than keeping its own
 * copy of the statement. Every helper takes the caller's companyId first.
 */

/** One setting as saved; undefined when the company never saved it. */
export async function companySetting(
  db: Executor,
  companyId: number,
  key: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key)));
  return row?.value;
}

/** The company's time zone; the default when never saved, blank or not a zone this runtime knows. */
export async function companyTimeZone(db: Executor, companyId: number): Promise<string> {
  const zone = (await companySetting(db, companyId, "timezone"))?.trim();
  return zone && isValidTimeZone(zone) ? zone : DEFAULT_TIMEZONE;
}

/** Every setting the company saved, by key (the settings page, the session's company). */
export async function storedSettings(
  db: Executor,
  companyId: number,
): Promise<{ key: string; value: string }[]> {
  return db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, companyId))
    .orderBy(asc(settings.key));
}

/** The company's settings by key, each never saved one at its default (what the bot and the automatic messages read). */
export async function companySettings(db: Executor, companyId: number): Promise<Record<string, string>> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, companyId));
  return settingsWithDefaults(Object.fromEntries(rows.map((r) => [r.key, r.value])));
}

/** A new company's settings, all at once (its defaults at creation, the platform's at the first start). */
export async function insertSettings(db: Executor, companyId: number, values: Record<string, string>) {
  const rows = Object.entries(values).map(([key, value]) => ({ companyId, key, value }));
  if (rows.length) await db.insert(settings).values(rows);
}

/** Saves one setting of the company, replacing the value it had. */
export async function saveSetting(db: Executor, companyId: number, key: string, value: string, at: Date) {
  await db
    .insert(settings)
    .values({ companyId, key, value, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [settings.companyId, settings.key],
      set: { value, updatedAt: sql`excluded.updated_at` },
    });
}

/** Removes one setting of the company (a stored secret, DELETE /settings/{key}); none stored is no error. */
export async function deleteSetting(db: Executor, companyId: number, key: string) {
  await db.delete(settings).where(and(eq(settings.companyId, companyId), eq(settings.key, key)));
}

/**
 * A platform setting as saved, undefined when never saved. Platform settings live on the platform
 * company: the one the (first) super user belongs to. No companyId: a visitor reads them before logging in.
 */
export async function platformSetting(db: Executor, key: string): Promise<string | undefined> {
  const rows = await queryRows<{ value: string }>(
    db,
    sql`
    select s.value from settings s
    where s.key = ${key}
      and s.company_id = (select company_id from users where super order by id limit 1)`,
  );
  return rows[0]?.value;
}

/**
 * Settings of these keys stored in clear (from before migration 0031), across companies: the
 * start-up step seals them (secretsAtRest.ts).
 */
export async function clearSettingsOf(db: Executor, keys: readonly string[]) {
  return db
    .select({ companyId: settings.companyId, key: settings.key, value: settings.value })
    .from(settings)
    .where(
      and(
        inArray(settings.key, [...keys]),
        ne(settings.value, ""),
        notLike(settings.value, `${SEALED_PREFIX}%`),
      ),
    );
}

/** Stores a setting's new value, if it still holds the one it was made from. */
export async function replaceSettingValue(
  db: Executor,
  companyId: number,
  key: string,
  from: string,
  to: string,
) {
  await db
    .update(settings)
    .set({ value: to })
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key), eq(settings.value, from)));
}

/**
 * The company's opening hours (read when its scheduleType is "company": the chatbot's out-of-hours
 * message, the service levels' working time); undefined for an unknown company.
 */
export async function companyHours(db: Executor, companyId: number) {
  const [row] = await db
    .select({ schedules: companies.schedules })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.schedules;
}
