import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { workerBundle } from "../../lib/workerBundle.js";
import { buildXlsx } from "../../test/xlsx.js";
import { ParkedReadings, openSheetReading } from "./sheetReader.js";

/**
 * The import's reader on its own: its worker's bundle stays lean, a reading hands over checked
 * batches, and a parked reading nobody takes is closed.
 */
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "atende-sheet-"));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function csvFile(lines: string[]): Promise<string> {
  const file = path.join(dir, `f${Math.random().toString(36).slice(2)}.csv`);
  await fs.writeFile(file, lines.join("\n"));
  return file;
}

describe("the spreadsheet reader", { timeout: 30_000 }, () => {
  it("bundles its worker without the database drivers or the HTTP layer", async () => {
    const code = await workerBundle(new URL("./sheetWorker.ts", import.meta.url));
    // esbuild names each module it bundles in a comment: none of these may be reached.
    for (const heavy of ["@electric-sql/pglite", "drizzle-orm", "node_modules/pg/", "fastify", "src/db/"])
      expect(code, `the sheet worker bundles ${heavy}`).not.toContain(heavy);
    expect(code).toContain("@e965/xlsx");
  });

  it("hands over checked batches: repeats in the file counted, bad rows with their line", async () => {
    const lines = ["nome,numero"];
    for (let i = 0; i < 1100; i++)
      lines.push(i === 700 ? "Ruim,12ab" : `P${i},55119830${String(i % 1000).padStart(5, "0")}`);
    const reading = await openSheetReading(await csvFile(lines), "a.csv");
    expect(reading.total).toBe(1100);
    let good = 0;
    let repeated = 0;
    const bad = [];
    for (let b = await reading.next(); b; b = await reading.next()) {
      good += b.good.length;
      repeated += b.repeated;
      bad.push(...b.bad);
    }
    expect(reading.processed).toBe(1100);
    expect(bad).toEqual([{ row: 702, reason: "import.invalidNumber", value: "12ab" }]);
    // Rows 1001-1100 repeat rows 1-100.
    expect({ good, repeated }).toEqual({ good: 999, repeated: 100 });
    reading.close();
  });

  it("resumes after committed rows, still knowing their numbers", async () => {
    const lines = ["nome,numero"];
    for (let i = 0; i < 600; i++) lines.push(`R${i},55119840${String(i % 400).padStart(5, "0")}`);
    const reading = await openSheetReading(await csvFile(lines), "r.csv", 300);
    const batches = [];
    for (let b = await reading.next(); b; b = await reading.next()) batches.push(b);
    // Rows 301-400 are new; 401-600 repeat rows 1-200, read before the resume point.
    expect(batches.reduce((n, b) => n + b.good.length, 0)).toBe(100);
    expect(batches.reduce((n, b) => n + b.repeated, 0)).toBe(200);
    expect(batches[0]!.good[0]!.row).toBe(302);
    reading.close();
  });

  it("closes a parked reading nobody takes in time, and gives a reading only where it stopped", async () => {
    const file = await csvFile(["nome,numero", "A,5511977773333"]);
    const parked = new ParkedReadings(50);
    const late = await openSheetReading(file, "p.csv");
    parked.park(1, late);
    // Closed by the 50 ms timer: wait for it rather than for a guess.
    await vi.waitFor(() => expect(late.closed).toBe(true), { timeout: 2_000, interval: 10 });
    expect(parked.take(1, 0)).toBeNull();

    const moved = await openSheetReading(file, "p.csv");
    parked.park(2, moved);
    // The import went further elsewhere (another instance): this reading is stale.
    expect(parked.take(2, 1)).toBeNull();
    expect(moved.closed).toBe(true);

    const kept = await openSheetReading(file, "p.csv");
    parked.park(3, kept);
    expect(parked.take(3, 0)).toBe(kept);
    expect((await kept.next())!.good).toHaveLength(1);
    kept.close();
  });

  it("refuses an .xlsx that would unpack past its budget (a zip bomb), before SheetJS reads it", async () => {
    // 4 MB of one letter: a few kB zipped.
    const bomb = buildXlsx([
      ["nome", "numero"],
      ["x".repeat(4 * 1024 * 1024), "5511977774444"],
    ]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const file = path.join(dir, "bomba.xlsx");
    await fs.writeFile(file, bomb);
    await expect(
      openSheetReading(file, "bomba.xlsx", 0, { maxUnzippedBytes: 1024 * 1024 }),
    ).rejects.toMatchObject({ code: "ERR_CONTACT_LIST_IMPORT_INVALID_FILE" });
    // Within the budget the same file reads.
    const reading = await openSheetReading(file, "bomba.xlsx", 0, { maxUnzippedBytes: 8 * 1024 * 1024 });
    expect((await reading.next())!.good).toHaveLength(1);
    reading.close();
  });

  it("refuses a file without a number column, with its code", async () => {
    await expect(openSheetReading(await csvFile(["nome,email", "A,a@x.com"]), "n.csv")).rejects.toMatchObject(
      {
        code: "ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN",
      },
    );
  });
});
