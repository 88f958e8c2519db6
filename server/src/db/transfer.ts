import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { type Db, type Executor, migrationsFolder, queryRows } from "./client.js";

/**
 * Copying a database's rows out and in, the same on PGlite and PostgreSQL, whatever their major
 * versions (PGlite is PostgreSQL 18, a server may be 15): every table of the public schema, read in
 * one snapshot through a cursor, each value as PostgreSQL's own text output in COPY's text format
 * (tab-separated, `\N` for null: what `pg_dump --data-only` writes and `psql` reads). The schema is
 * never copied: the migrations build it, up to the source's level, then the rows go in, then the
 * rest of the migrations run as in any upgrade. Backups (ops/backup.ts), restores and the move off
 * the embedded database (ops/move.ts) are made of this.
 */

export interface TableInfo {
  name: string;
  columns: string[];
}

/** How far a database's schema is: how many of the journal's migrations it applied, and the last. */
export interface MigrationLevel {
  applied: number;
  last: string | null;
}

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

export function journal(): JournalEntry[] {
  const file = path.join(migrationsFolder, "meta/_journal.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { entries: JournalEntry[] }).entries;
}

/** This release's own level: every migration it ships. */
export function headLevel(): MigrationLevel {
  const entries = journal();
  return { applied: entries.length, last: entries.at(-1)?.tag ?? null };
}

export async function migrationLevel(db: Executor): Promise<MigrationLevel> {
  const [exists] = await queryRows<{ found: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as found`,
  );
  if (!exists?.found) return { applied: 0, last: null };
  const [row] = await queryRows<{ n: number; last: string | null }>(
    db,
    sql`select count(*)::int as n, max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  const n = row?.n ?? 0;
  const tag = journal().find((e) => String(e.when) === row?.last)?.tag ?? null;
  if (n > 0 && !tag)
    throw new Error("the database has migrations this release does not know (a newer release?)");
  return { applied: n, last: tag };
}

/** Every table of the public schema with its columns in order (no migration bookkeeping). */
export async function tablesOf(db: Executor): Promise<TableInfo[]> {
  const rows = await queryRows<{ table_name: string; column_name: string }>(
    db,
    sql`select c.table_name, c.column_name
          from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
         where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
         order by c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, string[]>();
  for (const r of rows) tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
  return [...tables].map(([name, columns]) => ({ name, columns }));
}

/** Whether any table of the public schema holds a row (a target must hold none). */
export async function hasRows(db: Executor): Promise<boolean> {
  for (const t of await tablesOf(db)) {
    const [row] = await queryRows<{ found: boolean }>(
      db,
      sql`select exists (select 1 from ${sql.identifier(t.name)}) as found`,
    );
    if (row?.found) return true;
  }
  return false;
}

/** The same text for the same values on either database. */
async function settleOutput(tx: Executor) {
  await tx.execute(sql.raw("set local time zone 'UTC'"));
  await tx.execute(sql.raw("set local datestyle = 'ISO, YMD'"));
  await tx.execute(sql.raw("set local intervalstyle = 'postgres'"));
  await tx.execute(sql.raw("set local extra_float_digits = 1"));
  await tx.execute(sql.raw("set local bytea_output = 'hex'"));
}

const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
function copyLine(values: (string | null)[]): string {
  return values.map((v) => (v === null ? "\\N" : v.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]!))).join("\t");
}

const UNESCAPES: Record<string, string> = { "\\": "\\", n: "\n", r: "\r", t: "\t" };
export function parseCopyLine(line: string): (string | null)[] {
  return line
    .split("\t")
    .map((v) => (v === "\\N" ? null : v.replace(/\\([\\nrt])/g, (_, c: string) => UNESCAPES[c]!)));
}

/**
 * A table's fingerprint: its row count and a sum of every row's hash, whatever the rows' order, so
 * the same rows give the same fingerprint on any database.
 */
export class Fingerprint {
  rows = 0;
  private sum = 0n;
  add(line: string) {
    this.rows++;
    this.sum =
      (this.sum + crypto.createHash("sha256").update(line).digest().readBigUInt64BE(0)) & 0xffffffffffffffffn;
  }
  get value() {
    return `${this.rows}:${this.sum.toString(16).padStart(16, "0")}`;
  }
}

export interface TableSink {
  /** Before any row: the source's level and every table with its row count, from the same snapshot. */
  begin(level: MigrationLevel, tables: { table: TableInfo; rows: number }[]): Promise<void>;
  /** A batch of a table's rows, as COPY text lines. */
  lines(table: TableInfo, lines: string[]): Promise<void>;
  end(table: TableInfo, fingerprint: string): Promise<void>;
}

const FETCH = 2_000;

/** Reads one table through a cursor, a batch at a time, and answers its fingerprint. */
async function scanTable(tx: Executor, table: TableInfo, onLines: (lines: string[]) => Promise<void>) {
  const columns = sql.join(
    table.columns.map((c) => sql`${sql.identifier(c)}::text`),
    sql`, `,
  );
  await tx.execute(
    sql`declare transfer_rows no scroll cursor for select ${columns} from ${sql.identifier(table.name)}`,
  );
  const fingerprint = new Fingerprint();
  for (;;) {
    const rows = await queryRows<Record<string, string | null>>(
      tx,
      sql.raw(`fetch ${FETCH} from transfer_rows`),
    );
    if (!rows.length) break;
    const lines = rows.map((r) => copyLine(table.columns.map((c) => r[c] ?? null)));
    for (const line of lines) fingerprint.add(line);
    await onLines(lines);
  }
  await tx.execute(sql.raw("close transfer_rows"));
  return fingerprint;
}

/**
 * Reads every table in one consistent snapshot (repeatable read, read only: a running PostgreSQL
 * server keeps serving), in batches, handing each to `sink` before the next is fetched. Answers the
 * source's level and each table's rows and fingerprint.
 */
export async function readTables(
  db: Db,
  sink: TableSink,
): Promise<{ level: MigrationLevel; tables: Record<string, { rows: number; fingerprint: string }> }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw("set transaction isolation level repeatable read, read only"));
    await settleOutput(tx);
    const level = await migrationLevel(tx);
    const tables = [];
    for (const table of await tablesOf(tx)) {
      const [counted] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from ${sql.identifier(table.name)}`,
      );
      tables.push({ table, rows: counted?.n ?? 0 });
    }
    await sink.begin(level, tables);
    const out: Record<string, { rows: number; fingerprint: string }> = {};
    for (const { table } of tables) {
      const fingerprint = await scanTable(tx, table, (lines) => sink.lines(table, lines));
      out[table.name] = { rows: fingerprint.rows, fingerprint: fingerprint.value };
      await sink.end(table, fingerprint.value);
    }
    return { level, tables: out };
  });
}

/** The fingerprints of every table, read the same way (tests and checks). */
export async function fingerprints(db: Db): Promise<Record<string, string>> {
  const nothing = async () => {};
  const { tables } = await readTables(db, { begin: nothing, lines: nothing, end: nothing });
  return Object.fromEntries(Object.entries(tables).map(([name, t]) => [name, t.fingerprint]));
}

/**
 * Builds the schema of an empty database up to `level`: the first `level.applied` migrations of the
 * journal, from a scratch copy of the migrations folder cut there (the rest run after the rows are in).
 */
export async function migrateTo(migrate: (folder: string) => Promise<void>, level: MigrationLevel) {
  const entries = journal();
  if (level.applied > entries.length || (level.last && entries[level.applied - 1]?.tag !== level.last))
    throw new Error(`this release cannot build the schema of level ${level.applied} (${level.last})`);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "atende-migrations-"));
  try {
    fs.mkdirSync(path.join(folder, "meta"));
    const kept = entries.slice(0, level.applied);
    const meta = JSON.parse(
      fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8"),
    ) as object;
    fs.writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...meta, entries: kept }));
    for (const e of kept)
      fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
    await migrate(folder);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Drops every table of an empty database's schema (a target left half-made by a failed attempt). */
export async function dropEmptySchema(db: Db) {
  if (await hasRows(db)) throw new Error("the target database holds rows");
  await db.transaction(async (tx) => {
    for (const t of await tablesOf(tx))
      await tx.execute(sql`drop table if exists ${sql.identifier(t.name)} cascade`);
    await tx.execute(sql.raw("drop schema if exists drizzle cascade"));
  });
}

export interface TableSource {
  /** The next table's header, or null after the last. */
  nextTable(): Promise<{ table: TableInfo; rows: number } | null>;
  /** The current table's next batch of lines, or null after its last. */
  nextLines(): Promise<string[] | null>;
}

/**
 * Loads every table's rows into a database whose schema is at the rows' level and holds no row,
 * in one transaction: foreign keys are dropped first and added back after (so order and cycles do
 * not matter, and adding them checks every reference), sequences are set past the largest ids, and
 * each table's count and fingerprint must match `expected` before the commit.
 */
export async function loadTables(
  db: Db,
  source: TableSource,
  expected: () => Promise<Record<string, { rows: number; fingerprint: string }>>,
): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    await settleOutput(tx);
    const keys = await queryRows<{ table_name: string; name: string; def: string }>(
      tx,
      sql`select conrelid::regclass::text as table_name, conname as name, pg_get_constraintdef(oid) as def
            from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`,
    );
    for (const k of keys)
      await tx.execute(sql`alter table ${sql.raw(k.table_name)} drop constraint ${sql.identifier(k.name)}`);

    const target = new Map((await tablesOf(tx)).map((t) => [t.name, new Set(t.columns)]));
    const loaded: Record<string, number> = {};
    for (let next = await source.nextTable(); next; next = await source.nextTable()) {
      const { table } = next;
      const columns = target.get(table.name);
      const unknown = table.columns.filter((c) => !columns?.has(c));
      if (!columns || unknown.length)
        throw new Error(
          `the target's schema has no ${columns ? `column ${unknown.join(", ")} in ` : ""}table ${table.name}`,
        );
      const names = sql.join(
        table.columns.map((c) => sql.identifier(c)),
        sql`, `,
      );
      // Parameters are capped per statement (65,535): rows go in chunks.
      const perInsert = Math.max(1, Math.floor(20_000 / table.columns.length));
      let count = 0;
      for (let lines = await source.nextLines(); lines; lines = await source.nextLines()) {
        for (let i = 0; i < lines.length; i += perInsert) {
          const values = lines.slice(i, i + perInsert).map((line) => {
            const row = parseCopyLine(line);
            if (row.length !== table.columns.length)
              throw new Error(`a row of ${table.name} has ${row.length} values`);
            return sql`(${sql.join(
              row.map((v) => (v === null ? sql`null` : sql`${v}`)),
              sql`, `,
            )})`;
          });
          await tx.execute(
            sql`insert into ${sql.identifier(table.name)} (${names}) values ${sql.join(values, sql`, `)}`,
          );
        }
        count += lines.length;
      }
      loaded[table.name] = count;
    }
    for (const k of keys)
      await tx.execute(
        sql`alter table ${sql.raw(k.table_name)} add constraint ${sql.identifier(k.name)} ${sql.raw(k.def)}`,
      );

    const serials = await queryRows<{ table_name: string; column_name: string; seq: string }>(
      tx,
      sql`select table_name, column_name, pg_get_serial_sequence(quote_ident(table_schema) || '.' || quote_ident(table_name), column_name) as seq
            from information_schema.columns
           where table_schema = 'public' and pg_get_serial_sequence(quote_ident(table_schema) || '.' || quote_ident(table_name), column_name) is not null`,
    );
    for (const s of serials)
      await tx.execute(
        sql`select setval(${s.seq}, coalesce((select max(${sql.identifier(s.column_name)}) from ${sql.identifier(s.table_name)}), 0) + 1, false)`,
      );

    // Read back in this transaction: what the commit would keep must be what was read.
    const want = await expected();
    const got = await readBack(tx);
    for (const [name, t] of Object.entries(want)) {
      if (got[name] !== t.fingerprint)
        throw new Error(
          `table ${name}: ${t.rows} rows expected (${t.fingerprint}), the target holds ${got[name] ?? "none"}`,
        );
    }
    return loaded;
  });
}

async function readBack(tx: Executor): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of await tablesOf(tx))
    out[table.name] = (await scanTable(tx, table, async () => {})).value;
  return out;
}
