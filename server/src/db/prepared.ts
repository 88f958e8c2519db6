import pg from "pg";
import { type Query, type SQL, fillPlaceholders, getTableColumns, is, sql } from "drizzle-orm";
import { NodePgSession } from "drizzle-orm/node-postgres";
import { PgDialect, type PgTable } from "drizzle-orm/pg-core";
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
    /**
     * On node-postgres, read the rows as arrays and build them with a builder of this statement's
     * own (nodePgRows): for the inbound hot path's statements. Not for every statement yet: so read,
     * the ticket's messages page and an agent's GET /tickets/{id} measured slower in bench/tickets
     * (2 runs of each, not understood yet; see bench/README, 2026-12-04 08:10).
     */
    private readonly options: { arrayRows?: boolean } = {},
  ) {
    this.query = dialect.sqlToQuery(statement);
    // node-postgres refuses a name reused with other text; say which at start-up, not mid-traffic.
    const known = names.get(name);
    if (known !== undefined && known !== this.query.sql)
      throw new Error(`prepared statement "${name}" is defined twice`);
    names.set(name, this.query.sql);
  }

  async rows(db: Executor, values: Values): Promise<Row[]> {
    if (this.options.arrayRows) {
      const params = fillPlaceholders(this.query.params, values as Record<string, unknown>);
      const rows = await nodePgRows(db, { name: this.name, text: this.query.sql, values: params });
      if (rows) return rows as Row[];
    }
    const prepared = db._.session.prepareQuery(this.query, undefined, this.name, false);
    const result = (await prepared.execute(values as Record<string, unknown>)) as { rows: Row[] };
    return result.rows;
  }
}

/**
 * A statement's rows on node-postgres (null on PGlite), as Drizzle's raw statements answer them
 * (its type parsers, keys in the columns' order, a repeated name keeping the last value), read as
 * arrays and built into objects by a builder compiled for the statement's columns (see rowBuilder):
 * on the pool, or on the transaction's connection.
 */
export async function nodePgRows(
  db: Executor,
  query: { name?: string; text: string; values: unknown[] },
): Promise<Record<string, unknown>[] | null> {
  const session: unknown = db._.session;
  if (!is(session, NodePgSession)) return null;
  const { client } = session as unknown as { client: pg.Pool | pg.PoolClient };
  const result = await client.query<unknown[]>({ ...query, rowMode: "array", types: DRIZZLE_RAW_TYPES });
  if (result.rows.length === 0) return [];
  const build = builderOf(result.fields);
  return result.rows.map(build);
}

type RowBuild = (values: unknown[]) => Record<string, unknown>;
/** The builders by their columns' names (statements are the app's own: a bounded set; capped anyway). */
const builders = new Map<string, RowBuild>();

function builderOf(fields: readonly { name: string }[]): RowBuild {
  const names = fields.map((f) => f.name);
  const key = names.join("\u0000");
  let build = builders.get(key);
  if (!build) {
    if (builders.size >= 2_000) builders.clear();
    builders.set(key, (build = rowBuilder(names)));
  }
  return build;
}

/**
 * The type parsers Drizzle's node-postgres session gives a raw statement (a PreparedSql answered
 * them through it before): dates, timestamps and intervals, and their arrays, stay text; the rest as
 * node-postgres parses it.
 */
const TEXT_AS_IS = new Set([1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231]);
const asIs = (value: string) => value;
const DRIZZLE_RAW_TYPES = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    TEXT_AS_IS.has(oid)
      ? asIs
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * A key as an object literal names it: a JSON string, so any column name is safe in the code; a
 * computed one for `__proto__`, which as a plain key would set the object's prototype instead.
 */
const literalKey = (key: string) => (key === "__proto__" ? `[${JSON.stringify(key)}]` : JSON.stringify(key));

/**
 * A function making one row object of the given keys from an array of values, as node-postgres'
 * object rows have them (keys in order; a repeated name keeps the last value). Each is compiled for
 * its own keys, so the object literal in it always makes objects of one shape: node-postgres' own
 * object rows are made by one function for every statement (a spread of a template, then a store by
 * each column's name), whose inline caches see every statement's shape and fall to V8's slow paths
 * (in bench/inbound's profile, the spread alone cost 3 to 14 µs a message).
 */
export function rowBuilder(keys: readonly string[]): RowBuild {
  const fields = keys.map((key, i) => `${literalKey(key)}: v[${i}]`);
  return new Function("v", `return { ${fields.join(", ")} };`) as RowBuild;
}

/**
 * A text[] parameter's literal ({"a","b"}), quotes and backslashes escaped: one parameter whatever the
 * list's length, so a statement keeps one text (and one prepared plan). Hundreds of bound values per
 * statement (`in ($1, ... $500)`) cost embedded PGlite ~50-80 ms a statement.
 */
export function textArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`;
}

/** An int[] (or bigint[]) parameter's literal ({1,2,3}): one parameter whatever the list's length, as textArray. */
export function intArray(values: readonly number[]): string {
  return `{${values.join(",")}}`;
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
  let map = tableRowMaps.get(table);
  if (!map) tableRowMaps.set(table, (map = tableRowMap(table)));
  return map(raw) as T["$inferSelect"];
}

type RowMap = (raw: Record<string, unknown>) => Record<string, unknown>;
const tableRowMaps = new WeakMap<PgTable, RowMap>();

/**
 * tableRow's mapping for one table, compiled for its columns (as rowBuilder, and for the same reason:
 * one loop over every table's columns, reading and writing keys by variable, fell to V8's slow paths
 * on the hot path's rows).
 */
function tableRowMap(table: PgTable): RowMap {
  const columns = Object.entries(getTableColumns(table));
  const fields = columns.map(
    ([key, column], i) =>
      `${literalKey(key)}: (v = raw[${JSON.stringify(column.name)}]) === null || v === undefined ? null : c[${i}].mapFromDriverValue(v)`,
  );
  const make = new Function(
    "c",
    `return function row(raw) { let v; return { ${fields.join(",\n")} }; };`,
  ) as (c: unknown[]) => RowMap;
  return make(columns.map(([, column]) => column));
}
