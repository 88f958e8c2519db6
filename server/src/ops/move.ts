import type { Config } from "../config.js";
import { openPostgres } from "../db/client.js";
import {
  type MigrationLevel,
  type TableInfo,
  dropEmptySchema,
  hasRows,
  loadTables,
  migrateTo,
  readTables,
  tablesOf,
} from "../db/transfer.js";
import { secretsSettingOf } from "../lib/secretBox.js";
import { OpsError, currentKeys, openDeploymentDatabase, seconds } from "./deployment.js";

export interface MoveFigures {
  tables: number;
  rows: number;
  seconds: number;
}

type Item =
  | { begin: MigrationLevel; tables: { table: TableInfo; rows: number }[] }
  | { lines: string[] }
  | { end: string }
  | { done: Record<string, { rows: number; fingerprint: string }> };

/** A bounded queue from a writer that pushes (the source's snapshot) to a reader that pulls. */
function channel<T>(capacity: number) {
  const items: T[] = [];
  let failure: unknown = null;
  let readerWaits: (() => void) | null = null;
  let writerWaits: (() => void) | null = null;
  return {
    async push(item: T) {
      items.push(item);
      readerWaits?.();
      while (items.length > capacity && failure === null) await new Promise<void>((r) => (writerWaits = r));
    },
    fail(err: unknown) {
      failure = err;
      readerWaits?.();
      writerWaits?.();
    },
    async pull(): Promise<T> {
      while (!items.length) {
        if (failure !== null) throw failure;
        await new Promise<void>((r) => (readerWaits = r));
      }
      const item = items.shift()!;
      writerWaits?.();
      return item;
    },
  };
}

/**
 * Moves the embedded database of DATA_DIR (no server may run on it) to the PostgreSQL database at
 * `url`, which must hold no row: its schema by the migrations (up to the embedded one's level),
 * then every row, the sequences past the largest ids, each table's count and fingerprint checked
 * before the commit, then the rest of the migrations. The embedded database is left as it was. The
 * media and the keys stay where they are: the command says which variables the deployment needs.
 */
export async function moveToPostgres(
  config: Config,
  url: string,
  say: (line: string) => void = () => {},
): Promise<MoveFigures> {
  if (config.DATABASE_URL)
    throw new OpsError("DATABASE_URL is set: this command moves the embedded database of DATA_DIR; unset it");
  if (!/^postgres(ql)?:\/\//.test(url)) throw new OpsError("the target must be a postgres:// URL");
  const started = performance.now();
  const source = await openDeploymentDatabase(config);
  const target = openPostgres(url, 2);
  try {
    await target.ping().catch((err: unknown) => {
      throw new OpsError(`cannot reach the target (${new URL(url).host}): ${(err as Error).message}`);
    });
    if (await hasRows(target.db))
      throw new OpsError("the target database holds rows: move into an empty database (CREATE DATABASE ...)");
    if ((await tablesOf(target.db)).length) await dropEmptySchema(target.db);

    const rows = channel<Item>(4);
    void readTables(source.db, {
      begin: (level, tables) => rows.push({ begin: level, tables }),
      lines: (_table, lines) => rows.push({ lines }),
      end: (_table, fingerprint) => rows.push({ end: fingerprint }),
    }).then(
      (read) => rows.push({ done: read.tables }),
      (err: unknown) => rows.fail(err),
    );
    const first = await rows.pull();
    if (!("begin" in first)) throw new Error("the source's rows came before its tables");
    say(
      `embedded database: ${first.tables.length} tables at migration ${first.begin.applied} (${first.begin.last})`,
    );
    await migrateTo((folder) => target.migrate(folder), first.begin);

    let next = 0;
    let open = false;
    const loaded = await loadTables(
      target.db,
      {
        async nextTable() {
          while (open) await this.nextLines();
          const table = first.tables[next++];
          if (!table) return null;
          open = true;
          return table;
        },
        async nextLines() {
          if (!open) return null;
          const item = await rows.pull();
          if ("lines" in item) return item.lines;
          open = false;
          return null;
        },
      },
      async () => {
        const item = await rows.pull();
        if (!("done" in item)) throw new Error("the source's rows did not end");
        return item.done;
      },
    );
    const count = Object.values(loaded).reduce((a, b) => a + b, 0);
    say(`moved ${count} rows in ${Object.keys(loaded).length} tables, counts and fingerprints checked`);
    await target.migrate();
    const figures = { tables: Object.keys(loaded).length, rows: count, seconds: Number(seconds(started)) };
    const keys = currentKeys(config);
    say(
      `done in ${figures.seconds} s. Start the server with DATABASE_URL set to the target, and on every instance:`,
    );
    if (keys.jwtSecret && !config.JWT_SECRET)
      say(`  JWT_SECRET=<the content of ${config.dataDir}/jwt-secret>`);
    if (keys.secretsKey && !config.SECRETS_KEY)
      say(
        `  SECRETS_KEY=${secretsSettingOf(keys.secretsKey).slice(0, 14)}... (run: echo "base64url:$(cat ${config.dataDir}/secrets-key)")`,
      );
    say(
      "  the media: keep DATA_DIR/media on this one instance, or copy it into the bucket of MEDIA_STORAGE=s3 (a backup and a restore do)",
    );
    return figures;
  } finally {
    await target.close();
    await source.close();
  }
}
