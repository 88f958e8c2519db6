import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import type { BlobStore } from "../storage/blobs.js";
import {
  type MigrationLevel,
  type TableInfo,
  dropEmptySchema,
  hasRows,
  headLevel,
  loadTables,
  migrateTo,
  migrationLevel,
  readTables,
  tablesOf,
} from "../db/transfer.js";
import { keyOfSecretsSetting, secretsSettingOf } from "../lib/secretBox.js";
import { VERSION } from "../version.js";
import {
  OpsError,
  currentKeys,
  deploymentMedia,
  mediaIsEmpty,
  openDeploymentDatabase,
  seconds,
} from "./deployment.js";
import { TarWriter, readTar } from "./tar.js";

/**
 * One archive holds everything a deployment needs: the database's rows (every table, from one
 * snapshot), the media files (from the disk or the bucket) and the keys (JWT secret, secrets key).
 * A gzipped tar, in this order:
 *
 *   manifest.json                    version, migration level, row counts, where the media were
 *   keys/jwt-secret, keys/secrets-key
 *   database/<table>/columns.json    then database/<table>/<n>.copy: rows in COPY text format
 *   database/fingerprints.json       each table's rows and fingerprint (db/transfer.ts)
 *   media/<key>                      each file as stored ("12/<uuid>.jpg", "logos/...")
 *   summary.json                     the media files and bytes written
 *
 * It holds the keys: keep it where the database's own backups would be kept.
 */
export const FORMAT = "atende-backup/1";

export interface Manifest {
  format: typeof FORMAT;
  version: string;
  createdAt: string;
  database: { kind: "pglite" | "postgres"; level: MigrationLevel; tables: Record<string, number> };
  media: { storage: "local" | "s3"; location: string };
  keys: { jwtSecret: boolean; secretsKey: boolean };
}

export interface Figures {
  tables: number;
  rows: number;
  mediaFiles: number;
  mediaBytes: number;
  seconds: number;
}

/** A table's rows are cut into entries of about this size (each held in memory once). */
const CHUNK_BYTES = 4 * 1024 * 1024;

/** What a command works on: the deployment's database and media store, opened by its caller. */
export interface Deployment {
  config: Config;
  database: Database;
  blobs: BlobStore;
}

/** The deployment the configuration names (the embedded database only while no server runs on it). */
export async function withDeployment<T>(config: Config, work: (d: Deployment) => Promise<T>): Promise<T> {
  const database = await openDeploymentDatabase(config);
  try {
    return await work({ config, database, blobs: deploymentMedia(config) });
  } finally {
    await database.close();
  }
}

export const backup = (config: Config, file: string, say?: (line: string) => void) =>
  withDeployment(config, (d) => backupTo(d, file, say));

export const restore = (config: Config, file: string, say?: (line: string) => void) =>
  withDeployment(config, (d) => restoreFrom(d, file, say));

export async function backupTo(
  { config, database, blobs }: Deployment,
  file: string,
  say: (line: string) => void = () => {},
): Promise<Figures & { archiveBytes: number }> {
  const started = performance.now();
  const target = path.resolve(file);
  const part = `${target}.part`;
  const gzip = createGzip({ level: 6 });
  const written = pipeline(gzip, fs.createWriteStream(part, { mode: 0o600 }));
  written.catch(() => undefined);
  const tar = new TarWriter(gzip);
  try {
    const keys = currentKeys(config);
    let chunk: string[] = [];
    let chunkBytes = 0;
    let chunkNo = 0;
    const flush = async (table: TableInfo) => {
      if (!chunk.length) return;
      await tar.file(
        `database/${table.name}/${String(++chunkNo).padStart(5, "0")}.copy`,
        Buffer.from(chunk.join("\n") + "\n"),
      );
      chunk = [];
      chunkBytes = 0;
    };
    // Each table's entries start with its columns, before its first rows (or alone when it has none).
    let headed: string | null = null;
    const header = async (table: TableInfo) => {
      if (headed === table.name) return;
      headed = table.name;
      await tar.file(`database/${table.name}/columns.json`, Buffer.from(JSON.stringify(table.columns)));
    };
    let rows = 0;
    const { tables } = await readTables(database.db, {
      async begin(level, counted) {
        const manifest: Manifest = {
          format: FORMAT,
          version: VERSION,
          createdAt: new Date().toISOString(),
          database: {
            kind: database.kind,
            level,
            tables: Object.fromEntries(counted.map((c) => [c.table.name, c.rows])),
          },
          media: { storage: blobs.kind, location: blobs.location },
          keys: { jwtSecret: keys.jwtSecret !== null, secretsKey: keys.secretsKey !== null },
        };
        await tar.file("manifest.json", Buffer.from(JSON.stringify(manifest, null, 2)));
        if (keys.jwtSecret) await tar.file("keys/jwt-secret", Buffer.from(keys.jwtSecret));
        if (keys.secretsKey)
          await tar.file("keys/secrets-key", Buffer.from(keys.secretsKey.toString("base64url")));
        say(`database: ${counted.length} tables at migration ${level.applied} (${level.last})`);
      },
      async lines(table, lines) {
        await header(table);
        for (const line of lines) {
          chunk.push(line);
          chunkBytes += line.length + 1;
          if (chunkBytes >= CHUNK_BYTES) await flush(table);
        }
        rows += lines.length;
      },
      async end(table) {
        await header(table);
        await flush(table);
        chunkNo = 0;
        headed = null;
      },
    });
    await tar.file("database/fingerprints.json", Buffer.from(JSON.stringify(tables, null, 2)));
    say(`database: ${rows} rows in ${seconds(started)} s`);

    // The media after the rows' snapshot: every file a row names was there when it was taken (a
    // file stored meanwhile comes along unnamed; one removed meanwhile is skipped).
    let mediaFiles = 0;
    let mediaBytes = 0;
    for await (const { key } of blobs.list()) {
      const found = await blobs.get(key);
      if (!found) continue;
      await tar.stream(`media/${key}`, found.size, found.stream);
      mediaFiles++;
      mediaBytes += found.size;
    }
    await tar.file("summary.json", Buffer.from(JSON.stringify({ mediaFiles, mediaBytes, rows }, null, 2)));
    await tar.end();
    await written;
    fs.renameSync(part, target);
    const figures = {
      tables: Object.keys(tables).length,
      rows,
      mediaFiles,
      mediaBytes,
      archiveBytes: fs.statSync(target).size,
      seconds: Number(seconds(started)),
    };
    say(
      `backup written to ${target}: ${figures.rows} rows in ${figures.tables} tables, ${mediaFiles} media files (${mediaBytes} bytes), ${figures.archiveBytes} bytes in ${figures.seconds} s`,
    );
    return figures;
  } catch (err) {
    gzip.destroy();
    await written.catch(() => undefined);
    fs.rmSync(part, { force: true });
    throw err;
  }
}

function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[.-]/)
      .slice(0, 3)
      .map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** Reads an archive's entries one after another, with a look at the next one. */
function entriesOf(file: string) {
  const iterator = readTar(fs.createReadStream(file).pipe(createGunzip()))[Symbol.asyncIterator]();
  type Entry = Awaited<ReturnType<typeof iterator.next>>["value"];
  let peeked: IteratorResult<Entry> | null = null;
  return {
    async peek() {
      peeked ??= await iterator.next();
      return peeked.done ? null : peeked.value;
    },
    async next() {
      const got = peeked ?? (await iterator.next());
      peeked = null;
      return got.done ? null : got.value;
    },
  };
}

async function bytesOf(entry: { read: () => AsyncGenerator<Buffer> }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of entry.read()) chunks.push(c);
  return Buffer.concat(chunks);
}

/**
 * Restores an archive into the deployment the configuration names: its database (PostgreSQL by
 * DATABASE_URL, else the embedded one in DATA_DIR, which no server may hold) must hold no row, and
 * its media store no file. The schema is built up to the archive's level, the rows loaded and
 * checked (counts and fingerprints) in one transaction, the media copied and counted, the keys
 * put back in DATA_DIR (or checked against the variables), then the migrations this release adds
 * run. An archive of a newer release is refused.
 */
export async function restoreFrom(
  { config, database, blobs }: Deployment,
  file: string,
  say: (line: string) => void = () => {},
): Promise<Figures> {
  const started = performance.now();
  if (!fs.existsSync(file)) throw new OpsError(`no archive at ${file}`);
  const entries = entriesOf(file);
  const first = await entries.next();
  if (first?.name !== "manifest.json") throw new OpsError(`${file} is not an Atende backup (no manifest)`);
  const manifest = JSON.parse((await bytesOf(first)).toString("utf8")) as Manifest;
  if (manifest.format !== FORMAT) throw new OpsError(`unknown archive format ${String(manifest.format)}`);
  const head = headLevel();
  if (compareVersions(manifest.version, VERSION) > 0 || manifest.database.level.applied > head.applied)
    throw new OpsError(
      `the archive was made by version ${manifest.version} (migration ${manifest.database.level.applied}), newer than this one (${VERSION}, migration ${head.applied}): restore it with that version or later`,
    );
  say(
    `archive of version ${manifest.version}, ${manifest.createdAt}, migration ${manifest.database.level.applied}`,
  );

  const keys: { jwtSecret?: string; secretsKey?: Buffer } = {};
  while ((await entries.peek())?.name.startsWith("keys/")) {
    const entry = (await entries.next())!;
    const value = (await bytesOf(entry)).toString("utf8").trim();
    if (entry.name === "keys/jwt-secret") keys.jwtSecret = value;
    if (entry.name === "keys/secrets-key") keys.secretsKey = Buffer.from(value, "base64url");
  }
  // Secrets sealed with the archive's key open only with it.
  if (
    keys.secretsKey &&
    config.SECRETS_KEY &&
    !keyOfSecretsSetting(config.SECRETS_KEY).equals(keys.secretsKey)
  )
    throw new OpsError(
      "SECRETS_KEY is set to another key than the archive's: the secrets sealed in it would not open. " +
        `Set SECRETS_KEY=${"base64url:<the archive's key>"} (keys/secrets-key inside the archive) or unset it.`,
    );
  const existing = currentKeys(config);
  if (keys.secretsKey && existing.secretsKey && !existing.secretsKey.equals(keys.secretsKey))
    throw new OpsError(`${config.dataDir} holds another secrets-key: restore into an empty DATA_DIR`);

  let rows = 0;
  {
    if (await hasRows(database.db))
      throw new OpsError(
        "the target database holds rows: restore into an empty database (or an empty DATA_DIR)",
      );
    if (!(await mediaIsEmpty(blobs)))
      throw new OpsError(`the media store (${blobs.location}) holds files: restore into an empty one`);
    // An empty database at the archive's level (a server started once on it) is taken as it is.
    const level = await migrationLevel(database.db);
    if (level.applied !== manifest.database.level.applied || level.last !== manifest.database.level.last) {
      if ((await tablesOf(database.db)).length) await dropEmptySchema(database.db);
      await migrateTo((folder) => database.migrate(folder), manifest.database.level);
    }

    let current: { table: TableInfo; more: boolean } | null = null;
    const loaded = await loadTables(
      database.db,
      {
        async nextTable() {
          while (current?.more) await this.nextLines();
          const entry = await entries.peek();
          const m = entry && /^database\/([\w-]+)\/columns\.json$/.exec(entry.name);
          if (!m) return null;
          await entries.next();
          current = {
            table: { name: m[1]!, columns: JSON.parse((await bytesOf(entry)).toString()) as string[] },
            more: true,
          };
          return { table: current.table, rows: manifest.database.tables[m[1]!] ?? 0 };
        },
        async nextLines() {
          const entry = await entries.peek();
          if (!current || !entry?.name.startsWith(`database/${current.table.name}/`)) {
            if (current) current.more = false;
            return null;
          }
          await entries.next();
          const text = (await bytesOf(entry)).toString("utf8");
          return text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
        },
      },
      async () => {
        const entry = await entries.next();
        if (entry?.name !== "database/fingerprints.json")
          throw new OpsError("the archive's database part is cut short");
        const expected = JSON.parse((await bytesOf(entry)).toString()) as Record<
          string,
          { rows: number; fingerprint: string }
        >;
        for (const [name, count] of Object.entries(manifest.database.tables))
          if (expected[name]?.rows !== count)
            throw new OpsError(
              `table ${name}: the manifest counts ${count} rows, the archive holds ${expected[name]?.rows}`,
            );
        return expected;
      },
    );
    rows = Object.values(loaded).reduce((a, b) => a + b, 0);
    say(
      `database: ${rows} rows in ${Object.keys(loaded).length} tables, counts and fingerprints checked (${seconds(started)} s)`,
    );

    let mediaFiles = 0;
    let mediaBytes = 0;
    let summed = false;
    for (let entry = await entries.next(); entry; entry = await entries.next()) {
      if (entry.name === "summary.json") {
        summed = true;
        const summary = JSON.parse((await bytesOf(entry)).toString()) as {
          mediaFiles: number;
          mediaBytes: number;
        };
        if (summary.mediaFiles !== mediaFiles || summary.mediaBytes !== mediaBytes)
          throw new OpsError(
            `the archive lists ${summary.mediaFiles} media files (${summary.mediaBytes} bytes), ${mediaFiles} (${mediaBytes}) were restored`,
          );
        break;
      }
      if (!entry.name.startsWith("media/")) continue;
      const size = await blobs.putStream(entry.name.slice("media/".length), Readable.from(entry.read()));
      mediaFiles++;
      mediaBytes += size;
    }
    if (!summed) throw new OpsError("the archive is cut short: its media part has no end");
    say(`media: ${mediaFiles} files, ${mediaBytes} bytes into ${blobs.location}`);

    fs.mkdirSync(config.dataDir, { recursive: true });
    if (keys.jwtSecret && !config.JWT_SECRET && !existing.jwtSecret)
      fs.writeFileSync(path.join(config.dataDir, "jwt-secret"), keys.jwtSecret, { mode: 0o600 });
    if (keys.secretsKey && !config.SECRETS_KEY && !existing.secretsKey)
      fs.writeFileSync(path.join(config.dataDir, "secrets-key"), keys.secretsKey.toString("base64url"), {
        mode: 0o600,
      });
    if (keys.secretsKey && !config.SECRETS_KEY && config.DATABASE_URL)
      say(`keys: set SECRETS_KEY=${secretsSettingOf(keys.secretsKey)} on every instance (the archive's key)`);

    if (manifest.database.level.applied < head.applied) {
      await database.migrate();
      say(`migrated from ${manifest.database.level.applied} to ${head.applied}`);
    }
    const figures = {
      tables: Object.keys(loaded).length,
      rows,
      mediaFiles,
      mediaBytes,
      seconds: Number(seconds(started)),
    };
    say(`restored in ${figures.seconds} s`);
    return figures;
  }
}
