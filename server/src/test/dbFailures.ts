import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { uid } from "./factories.js";

/**
 * Makes the database itself refuse inserts into `table` whose `column` equals `value`, with the
 * given SQLSTATE (40P01 a deadlock, 40001 a serialization failure...): a real failure of the real
 * database, as a busy production one gives, scoped to one row so other tests go on. Answers the
 * function that lifts it.
 */
export async function failInserts(
  db: Db,
  { table, column, value, sqlState }: { table: string; column: string; value: number; sqlState: string },
): Promise<() => Promise<void>> {
  const name = `test_fail_${uid().replace(/\W/g, "").toLowerCase()}`;
  if (![table, column, sqlState].every((s) => /^\w+$/.test(s)) || !Number.isSafeInteger(value))
    throw new Error("failInserts: plain names and an integer only");
  await db.execute(
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated failure' USING ERRCODE = '${sqlState}'; END $$`),
  );
  await db.execute(
    sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW
      WHEN (NEW.${column} = ${value}) EXECUTE FUNCTION ${name}()`),
  );
  return async () => {
    await db.execute(sql.raw(`DROP TRIGGER ${name} ON ${table}`));
    await db.execute(sql.raw(`DROP FUNCTION ${name}()`));
  };
}
