import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, queryRows } from "./client.js";
import { PreparedSql, rowBuilder, tableRow } from "./prepared.js";
import { contacts, tickets } from "./schema/index.js";
import { buildCompany, buildContact, buildTicket } from "../test/factories.js";
import { openTestDatabase } from "../test/harness.js";

/**
 * PreparedSql answers the rows Drizzle answered for the same statement (with `arrayRows`, on
 * PostgreSQL it reads them as arrays and builds each object with a builder of its own), and tableRow maps a row's JSON
 * as Drizzle's select maps the row: on both databases the suite runs on.
 */

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const TRICKY = sql`select ${sql.placeholder("n")}::int as n, 1 as twice, 2 as twice, 'x' as "__proto__",
  'a "quoted" \\ name' as "we""ird", null::text as nothing, '2026-12-04 08:00:00+00'::timestamptz as at,
  '{"k": [1, 2]}'::jsonb as doc, true as yes, 12345678901::bigint as big, 1.5::numeric as amount`;

describe("PreparedSql", () => {
  it("answers the same rows as Drizzle's own statement: repeated names, __proto__, quotes, nulls, types", async () => {
    const { db } = database;
    const statement = new PreparedSql<{ n: number }>("prepared_test_tricky", TRICKY, { arrayRows: true });
    const plain = new PreparedSql<{ n: number }>("prepared_test_tricky_plain", TRICKY);
    const expected = await queryRows(
      db,
      sql`select ${7}::int as n, 1 as twice, 2 as twice, 'x' as "__proto__",
      'a "quoted" \\ name' as "we""ird", null::text as nothing, '2026-12-04 08:00:00+00'::timestamptz as at,
      '{"k": [1, 2]}'::jsonb as doc, true as yes, 12345678901::bigint as big, 1.5::numeric as amount`,
    );
    for (let round = 0; round < 3; round++) {
      const rows = await statement.rows(db, { n: 7 });
      expect(rows).toEqual(expected);
      expect(await plain.rows(db, { n: 7 })).toEqual(expected);
      const [row] = rows as Record<string, unknown>[];
      expect(Object.keys(row!)).toEqual(Object.keys(expected[0] as object));
      // A column named __proto__ is an own field; the row keeps Object's prototype.
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(row, "__proto__")?.value).toBe("x");
      expect(row).toMatchObject({
        n: 7,
        twice: 2,
        'we"ird': 'a "quoted" \\ name',
        nothing: null,
        doc: { k: [1, 2] },
      });
    }
  });

  it("runs inside a transaction, on its connection", async () => {
    const { db } = database;
    const company = await buildCompany(db);
    const count = new PreparedSql<{ companyId: number }, { contacts: number }>(
      "prepared_test_count",
      sql`select count(*)::int as contacts from contacts where company_id = ${sql.placeholder("companyId")}::int`,
      { arrayRows: true },
    );
    await db
      .transaction(async (tx) => {
        await buildContact(tx, company.id, { name: "Only in the transaction" });
        expect(await count.rows(tx, { companyId: company.id })).toEqual([{ contacts: 1 }]);
        throw new Error("roll back");
      })
      .catch((err: Error) => expect(err.message).toBe("roll back"));
    expect(await count.rows(db, { companyId: company.id })).toEqual([{ contacts: 0 }]);
  });
});

describe("rowBuilder", () => {
  it("makes objects with the keys in order, the last of a repeated key, and an own __proto__", () => {
    const build = rowBuilder(["a", "b", "a", "__proto__", 'q"\\']);
    const row = build([1, 2, 3, { polluted: true }, "quote"]);
    expect(Object.keys(row)).toEqual(["a", "b", "__proto__", 'q"\\']);
    expect(row).toMatchObject({ a: 3, b: 2, 'q"\\': "quote" });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("tableRow", () => {
  it("maps a row's JSON as Drizzle's select maps the row: names, dates, nulls", async () => {
    const { db } = database;
    const company = await buildCompany(db);
    const contact = await buildContact(db, company.id, { name: "Maria" });
    const ticket = await buildTicket(db, company.id, { contactId: contact.id });
    for (const [table, id] of [
      [contacts, contact.id],
      [tickets, ticket.id],
    ] as const) {
      const [selected] = await db.select().from(table).where(eq(table.id, id));
      const [json] = await queryRows<{ row: Record<string, unknown> }>(
        db,
        sql`select row_to_json(t) as row from ${table} t where t.id = ${id}`,
      );
      expect(tableRow(table, json!.row)).toEqual(selected);
    }
  });
});
