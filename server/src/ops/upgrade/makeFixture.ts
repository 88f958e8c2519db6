import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../config.js";
import { backupTo } from "../backup.js";
import { LocalBlobs } from "../../storage/blobs.js";
import { VERSION } from "../../version.js";
import { openPglite } from "../../db/client.js";
import { seedDemo } from "../../seed/index.js";
import { sampleConversations } from "../../seed/sample.js";

/**
 * Writes this release's upgrade fixture, fixtures/<version>.tar.gz: a backup (ops/backup.ts) of a
 * database this release migrated and filled (the demo and a few generated conversations; no media).
 * upgrade.test.ts restores every fixture into a fresh database and migrates it to the head, so each
 * later release proves it keeps the rows an earlier one wrote. Run once per release, before tagging:
 *
 *   npm run upgrade-fixture -w server
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "fixtures", `${VERSION}.tar.gz`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "atende-fixture-"));
const database = await openPglite();
try {
  await database.migrate();
  await seedDemo(database.db, new Date("2026-12-01T12:00:00Z"));
  await sampleConversations(database.db, { tickets: 24, messagesPerTicket: 6 });
  const made = await backupTo(
    {
      config: loadConfig({ DATA_DIR: dataDir }),
      database,
      blobs: new LocalBlobs(path.join(dataDir, "media")),
    },
    out,
  );
  console.log(`${path.relative(process.cwd(), out)}: ${made.rows} rows, ${made.archiveBytes} bytes`);
} finally {
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
