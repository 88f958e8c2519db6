import { type Query, type SQL, getTableColumns, sql } from "drizzle-orm";
import { type PgColumn, PgDialect, type PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "./client.js";

const dialect = new PgDialect();
const names = new Map<string, string>();

/**
 * A hot statement whose SQL text is built once, when the module loads, and sent by name: on
 * PostgreSQL it is a server-side prepared statement, parsed and planned once per pooled connection
 * instead of on every call, and Drizzle does not rebuild its text either. Its parameters are
 * `sql.placeholder("name")`s, filled by `rows(db, values)` with driver values (numbers, strings,
 * booleans, ISO timestamps, null): cast them in the SQL (`::int`, `::timestamptz`) where PostgreSQL
 * cannot infer their type. Runs on the database or inside an open transaction (give it the `tx`);
 * PGlite runs it as an ordinary parameterized query.
 */
export class PreparedSql<Values extends object, Row = Record<string, unknown>> {
  /** The statement as sent: its text (placeholders as $1, $2, ...) and their names. */
  readonly query: Query;

  constructor(
    readonly name: string,
    statement: SQL,
  ) {
    this.query = dialect.sqlToQuery(statement);
    // node-postgres refuses a name reused with other text; say which at start-up, not mid-traffic.
    const known = names.get(name);
    if (known !== undefined && known !== this.query.sql)
      throw new Error(`prepared statement "${name}" is defined twice`);
    names.set(name, this.query.sql);
  }

  async rows(db: Executor, values: Values): Promise<Row[]> {
    const prepared = db._.session.prepareQuery(this.query, undefined, this.name, false);
    const result = (await prepared.execute(values as Record<string, unknown>)) as { rows: Row[] };
    return result.rows;
  }
}

/**
 * A text[] parameter's literal ({"a","b"}), quotes and backslashes escaped: one parameter whatever the
 * list's length, so a statement keeps one text (and one prepared plan). Hundreds of bound values per
 * statement (`in ($1, ... $500)`) cost embedded PGlite ~50-80 ms a statement.
 */
export function textArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`;
}

/**
 * The table's columns by name, for `returning` and `select` lists of prepared statements: never `*`,
 * whose cached plan PostgreSQL refuses to run once a migration adds a column ("cached plan must not
 * change result type"), as happens to an instance still running while another one migrates.
 * With `alias`, each column is qualified by it (an `update … from` whose other tables share names).
 */
export function columnList(table: PgTable, alias?: string): SQL {
  return sql.join(
    Object.values(getTableColumns(table)).map((c) =>
      alias ? sql`${sql.identifier(alias)}.${sql.identifier(c.name)}` : sql.identifier(c.name),
    ),
    sql`, `,
  );
}

/**
 * A table's row as Drizzle would answer it, from a raw row or its JSON (`row_to_json(alias)`): keys are
 * the columns' database names, values go through each column's own decoding (timestamps become Dates).
 */
export function tableRow<T extends PgTable>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  let columns = columnsOf.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table));
    columnsOf.set(table, columns);
  }
  const row: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}

const columnsOf = new WeakMap<PgTable, [string, PgColumn][]>();
