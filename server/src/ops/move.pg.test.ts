import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TicketsPage } from "@atende/contracts";
import { loadConfig } from "../config.js";
import { type Database, openPglite, openPostgres } from "../db/client.js";
import { lockDataDir } from "../db/lock.js";
import { tickets } from "../db/schema/index.js";
import { seedDemo } from "../seed/index.js";
import { sampleConversations } from "../seed/sample.js";
import { fingerprints } from "../db/transfer.js";
import { login } from "../test/factories.js";
import { createTestContext } from "../test/harness.js";
import { moveToPostgres } from "./move.js";

/**
 * A deployment on the embedded database moves to PostgreSQL: its DATA_DIR (the demo plus generated
 * conversations) into an empty PostgreSQL database, every table's rows identical, then the app on
 * PostgreSQL logs the demo admin in and lists the same tickets. Only with a PostgreSQL server.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "atende-move-"));
const name = `atende_move_${process.pid}`;
const server = new URL(process.env.TEST_DATABASE_URL!);
const targetUrl = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
const admin = new pg.Client({ connectionString: server.toString() });
let before: Record<string, string>;
let byStatus: Record<string, number>;
let companyId: number;

beforeAll(async () => {
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  const source: Database = await openPglite(dataDir);
  try {
    await source.migrate();
    await seedDemo(source.db, new Date("2026-11-02T12:00:00Z"));
    ({ companyId } = await sampleConversations(source.db, { tickets: 300, messagesPerTicket: 10 }));
    before = await fingerprints(source.db);
    const rows = await source.db
      .select({ status: tickets.status, n: count() })
      .from(tickets)
      .where(eq(tickets.companyId, companyId))
      .groupBy(tickets.status);
    byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  } finally {
    await source.close();
  }
});
afterAll(async () => {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("moving the embedded database to PostgreSQL", () => {
  it("refuses while a server holds the data folder", async () => {
    const release = lockDataDir(dataDir);
    try {
      await expect(moveToPostgres(loadConfig({ DATA_DIR: dataDir }), targetUrl)).rejects.toThrow(
        /stop the server first/,
      );
    } finally {
      release();
    }
  });

  // It moves a seeded database (3,300+ rows), then starts the app on the copy: 15–18 s on a calm
  // machine, past the suite's 20 s default under CI's load (one run timed out there).
  it("copies every row; the app on PostgreSQL logs in and shows the same tickets; a second move is refused", async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const moved = await moveToPostgres(config, targetUrl);
    console.log(`PGlite → PostgreSQL: ${moved.rows} rows in ${moved.tables} tables in ${moved.seconds} s`);
    expect(moved.rows).toBeGreaterThan(3_300);

    const target = openPostgres(targetUrl, 4);
    const ctx = await createTestContext({}, { database: target });
    try {
      expect(await fingerprints(target.db)).toEqual(before);
      const adminLogin = await login(ctx, "admin@atende.demo", "Admin123");
      for (const status of ["open", "pending", "closed"] as const) {
        const res = await ctx.app.inject({
          method: "GET",
          url: `/tickets?status=${status}&showAll=true`,
          headers: adminLogin.auth,
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<TicketsPage>().count, status).toBe(byStatus[status]);
      }
      // New rows take ids past the moved ones (300 tickets were moved).
      const [created] = await target.db
        .insert(tickets)
        .values({ companyId, contactId: 1, status: "pending" })
        .returning({ id: tickets.id });
      expect(created!.id).toBe(301);
    } finally {
      await ctx.close();
      await target.close();
    }
    await expect(moveToPostgres(config, targetUrl)).rejects.toThrow(/holds rows/);
  }, 90_000);
});
