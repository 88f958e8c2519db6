import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createGzip } from "node:zlib";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc } from "drizzle-orm";
import { loadConfig } from "../config.js";
import { contacts } from "../db/schema/index.js";
import { seedDemo } from "../seed/index.js";
import { sampleConversations } from "../seed/sample.js";
import { fingerprints } from "../db/transfer.js";
import { resolveJwtSecret } from "../http/tokens.js";
import { resolveSecretsKey } from "../lib/secretBox.js";
import { LocalBlobs } from "../storage/blobs.js";
import { S3Blobs } from "../storage/s3Blobs.js";
import { type S3Fake, startS3 } from "../test/fakes/s3.js";
import { openTestDatabase } from "../test/harness.js";
import { type Deployment, backupTo, restoreFrom } from "./backup.js";
import { TarWriter } from "./tar.js";

/**
 * Backup and restore on this run's database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the
 * demo plus generated conversations and media on disk are backed up, then restored into an empty
 * database with its media in a bucket (a real S3 server on loopback): every table's fingerprint,
 * every media byte and the keys come back; a target with rows and an archive of a newer release
 * are refused.
 */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "atende-backup-test-"));
let s3: S3Fake;
let source: Deployment;
let target: Deployment;
const opened: { drop(): Promise<void> }[] = [];

async function deployment(
  name: string,
  blobs: (dataDir: string) => Deployment["blobs"],
): Promise<Deployment> {
  const dataDir = path.join(scratch, name);
  const database = await openTestDatabase();
  opened.push(database);
  return { config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }), database, blobs: blobs(dataDir) };
}

beforeAll(async () => {
  s3 = await startS3();
  source = await deployment("source", (dir) => new LocalBlobs(path.join(dir, "media")));
  target = await deployment(
    "target",
    () =>
      new S3Blobs({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: "us-east-1",
        accessKeyId: "S3RVER",
        secretAccessKey: "S3RVER",
        forcePathStyle: true,
        prefix: "restored/",
      }),
  );
});
afterAll(async () => {
  for (const d of opened) await d.drop();
  await s3?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const sha = (data: Buffer) => crypto.createHash("sha256").update(data).digest("hex");
async function mediaOf(d: Deployment): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const { key } of d.blobs.list()) {
    const found = await d.blobs.get(key);
    const chunks: Buffer[] = [];
    for await (const c of found!.stream) chunks.push(c as Buffer);
    out[key] = sha(Buffer.concat(chunks));
  }
  return out;
}

describe("backup and restore", () => {
  // The demo company seeded, dumped and restored into a second database: 10-19 s on embedded PGlite
  // alone, more beside the suite's heaviest files on two cores (a timeout there is the host's pace).
  it("round trip: identical rows in every table, identical media bytes, the same keys", async () => {
    const db = source.database.db;
    await seedDemo(db, new Date("2026-11-02T12:00:00Z"));
    const { companyId } = await sampleConversations(db, { tickets: 150, messagesPerTicket: 8 });
    for (let i = 0; i < 15; i++)
      await source.blobs.put(
        `${companyId}/00000000-0000-4000-8000-${String(i).padStart(12, "0")}.png`,
        crypto.randomBytes(20_000 + i),
      );
    await source.blobs.put("logos/login-00000000-0000-4000-8000-000000000001.png", crypto.randomBytes(900));
    const jwt = resolveJwtSecret(undefined, source.config.dataDir);
    const key = resolveSecretsKey(undefined, source.config.dataDir);
    const before = await fingerprints(db);
    const media = await mediaOf(source);

    const file = path.join(scratch, "atende.tar.gz");
    const made = await backupTo(source, file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const restored = await restoreFrom(target, file);
    console.log(
      `backup/restore on ${source.database.kind}: ${made.rows} rows in ${made.tables} tables, ` +
        `${made.mediaFiles} media files (${made.mediaBytes} bytes), archive ${made.archiveBytes} bytes; ` +
        `backup ${made.seconds} s, restore ${restored.seconds} s`,
    );

    expect(restored).toMatchObject({ rows: made.rows, mediaFiles: 16, mediaBytes: made.mediaBytes });
    expect(made.rows).toBeGreaterThan(1_400);
    expect(await fingerprints(target.database.db)).toEqual(before);
    expect(await mediaOf(target)).toEqual(media);
    expect(resolveJwtSecret(undefined, target.config.dataDir)).toBe(jwt);
    expect(resolveSecretsKey(undefined, target.config.dataDir).equals(key)).toBe(true);
    // The sequences went past the largest ids: a new row takes the next one.
    const [last] = await target.database.db
      .select({ id: contacts.id })
      .from(contacts)
      .orderBy(desc(contacts.id))
      .limit(1);
    const [added] = await target.database.db
      .insert(contacts)
      .values({ companyId, name: "Nova cliente", number: "5511900000001" })
      .returning();
    expect(added!.id).toBe(last!.id + 1);

    await expect(restoreFrom(target, file)).rejects.toThrow(/holds rows/);
  }, 60_000);

  it("refuses an archive of a newer release before touching anything", async () => {
    const file = path.join(scratch, "newer.tar.gz");
    const gzip = createGzip();
    const done = pipeline(gzip, fs.createWriteStream(file));
    const tar = new TarWriter(gzip);
    const manifest = {
      format: "atende-backup/1",
      version: "99.0.0",
      createdAt: new Date().toISOString(),
      database: { kind: "postgres", level: { applied: 999, last: "0998_future" }, tables: {} },
      media: { storage: "local", location: "/data/media" },
      keys: { jwtSecret: false, secretsKey: false },
    };
    await tar.file("manifest.json", Buffer.from(JSON.stringify(manifest)));
    await tar.end();
    await done;
    await expect(restoreFrom(target, file)).rejects.toThrow(
      /made by version 99\.0\.0 .* newer than this one/,
    );
  });
});
