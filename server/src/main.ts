import { loadConfig } from "./config.js";
import {
  type Database,
  type DbLog,
  consoleLog,
  isDatabaseMisconfigured,
  isDatabaseUnavailable,
  migrateWhenReachable,
  openPglite,
  openPostgres,
} from "./db/client.js";
import { DataDirLockedError } from "./db/lock.js";
import { isRedisConnectionLost } from "./realtime/redisErrors.js";
import { buildApp } from "./app.js";
import { IDEMPOTENCY_KEY_DAYS } from "@atende/contracts";
import { forgetIdempotencyKeys } from "./modules/messagesApi/queries.js";
import { EventBus } from "./events/bus.js";
import { TokenService, resolveJwtSecret } from "./http/tokens.js";
import { seed } from "./seed/index.js";
import { secretBoxFor } from "./lib/secretBox.js";
import { sealSecretsAtRest } from "./secretsAtRest.js";
import { MediaStore, blobStoreFor } from "./storage/media.js";
import { S3Blobs } from "./storage/s3Blobs.js";
import { prepareSheetReader } from "./modules/contactLists/sheetReader.js";
import { prepareImportReader } from "./modules/contacts/importReader.js";

/** config → db → migrations → seed → app → listen; stops gracefully on SIGINT/SIGTERM. */
async function main() {
  // Stack traces of the release build point at the TypeScript (server/dist/*.js.map).
  process.setSourceMapsEnabled(true);
  const config = loadConfig();
  if (config.NODE_ENV === "production" && !config.JWT_SECRET && config.DATABASE_URL) {
    throw new Error("JWT_SECRET (32+ characters) is required in production with DATABASE_URL.");
  }
  if (config.NODE_ENV === "production" && !config.SECRETS_KEY && config.DATABASE_URL) {
    throw new Error("SECRETS_KEY (32+ characters) is required in production with DATABASE_URL.");
  }
  // The database's log goes to the console until the app's logger exists.
  let dbLog: DbLog = consoleLog;
  const log: DbLog = { warn: (obj, msg) => dbLog.warn(obj, msg) };
  let database: Database;
  try {
    database = config.DATABASE_URL
      ? openPostgres(config.DATABASE_URL, 10, log)
      : await openPglite(config.dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(`\n${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  try {
    await migrateWhenReachable(database, log);
  } catch (err) {
    if (config.DATABASE_URL && isDatabaseMisconfigured(err)) {
      const where = new URL(config.DATABASE_URL);
      console.error(
        `\nCannot use DATABASE_URL (${where.hostname}:${where.port || 5432}${where.pathname}): ` +
          `${(err as Error).message}. Check the user, password and database name.\n`,
      );
      process.exit(1);
    }
    throw err;
  }
  // What rows still hold in clear (written before migration 0031) is sealed or hashed now: the key
  // is not in the database, so no migration can.
  const movedAtRest = await sealSecretsAtRest(database.db, secretBoxFor(config));

  const blobs = blobStoreFor(config);
  if (blobs instanceof S3Blobs) await waitForBucket(blobs);
  const deps = {
    config,
    database,
    db: database.db,
    tokens: new TokenService(resolveJwtSecret(config.JWT_SECRET, config.dataDir), config.ACCESS_TOKEN_TTL),
    bus: new EventBus(),
    now: () => new Date(),
    media: new MediaStore(blobs, config.MEDIA_MAX_BYTES),
  };
  const built = await buildApp(deps);
  const { app, realtime } = built;
  dbLog = app.log;
  if (Object.values(movedAtRest).some((n) => n > 0))
    app.log.info(movedAtRest, "secrets at rest: sealed or hashed what was stored in clear");
  const seeded = await seed(deps, app.log);

  await app.listen({ port: config.PORT, host: config.HOST });
  built.startBackground();
  // The spreadsheet imports' worker scripts, bundled now rather than at the first upload.
  prepareSheetReader().catch((err) => app.log.warn({ err }, "bundling the spreadsheet reader failed"));
  prepareImportReader().catch((err) => app.log.warn({ err }, "bundling the contacts import reader failed"));
  const sweep = setInterval(() => {
    realtime.sweepOffline().catch((err) => app.log.warn({ err }, "offline sweep failed"));
    realtime.sweepLocked().catch((err) => app.log.warn({ err }, "locked companies sweep failed"));
    // An Idempotency-Key of the messages API protects its retries for a day.
    forgetIdempotencyKeys(deps.db, new Date(Date.now() - IDEMPOTENCY_KEY_DAYS * 86_400_000)).catch((err) =>
      app.log.warn({ err }, "idempotency keys sweep failed"),
    );
  }, 60_000);
  sweep.unref();

  const url = `http://localhost:${config.PORT}`;
  const lines = [`Atende is running at ${url} (database: ${database.kind})`];
  if (seeded.logins.length) {
    lines.push("Demo logins:");
    for (const l of seeded.logins) lines.push(`  ${l.role.padEnd(14)} ${l.email.padEnd(22)} ${l.password}`);
  }
  if (seeded.generatedPassword) {
    lines.push(
      `Super user created: ${seeded.generatedPassword.email} / ${seeded.generatedPassword.password}`,
    );
    lines.push("  (shown once: change it after your first login)");
  }
  if (seeded.needsSuperUser)
    lines.push(
      "No super user yet, and no demo data (NODE_ENV=production or DATABASE_URL). To create the",
      "platform's super user, set ADMIN_EMAIL and ADMIN_PASSWORD (without it a password is generated",
      "and shown here once) and start again; it is created only on an empty database.",
    );
  console.log(`\n${lines.join("\n")}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    clearInterval(sweep);
    const force = setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  // Last line of defence: work nobody awaited that lost its connection mid-command (a database
  // query in background work, a Redis command the Socket.IO adapter sent without a catch) is
  // logged, not a crash; the loops pick the work up again and the clients reconnect by themselves.
  // Any other unhandled rejection is a bug and still ends the process.
  process.on("unhandledRejection", (err) => {
    if (!isDatabaseUnavailable(err) && !isRedisConnectionLost(err)) throw err;
    app.log.warn(
      { reason: (err as Error).message },
      "background work lost its connection (database or Redis)",
    );
  });
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

/**
 * A media bucket that does not exist or refuses the credentials stops the start with a message; one
 * that does not answer yet (its server starting beside this one) is waited for, a minute at most.
 */
async function waitForBucket(blobs: S3Blobs) {
  const until = Date.now() + 60_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await blobs.check();
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      const why = `${(err as Error).name}${status ? ` (${status})` : ""}: ${(err as Error).message}`;
      if (status !== undefined || Date.now() > until) {
        console.error(
          `\nCannot use the media bucket ${blobs.location}: ${why}. Check S3_* (docs/production.md).\n`,
        );
        process.exit(1);
      }
      console.warn(`media bucket ${blobs.location} not reachable yet (attempt ${attempt}): ${why}`);
      await new Promise((r) => setTimeout(r, Math.min(5_000, 500 * attempt)));
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
