import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.js";
import { createSlots, readImportInWorker } from "./importReader.js";

/**
 * The contacts import's reader beyond what the HTTP suite (contacts.test.ts) reaches: a failure in
 * the worker thread that is no refusal of the file, and the cap on files waiting to be read.
 */

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("readImportInWorker", () => {
  it("answers 400 ERR_IMPORT_INVALID_FILE, keeping the cause, when the worker throws on its input", async () => {
    // Not a byte array: the worker's own code throws (a TypeError), as a bug on a hostile file would.
    const err = await refusal(readImportInWorker({} as Buffer, "pt"));
    expect(err.code).toBe("ERR_IMPORT_INVALID_FILE");
    expect(err.status).toBe(400);
    expect(String((err.cause as Error).message)).toContain("reading the contacts import failed");
  });

  it("still reads a good file afterwards", async () => {
    const plan = await readImportInWorker(Buffer.from("name,number\nAna,41988770001\n"), "pt");
    expect(plan).toMatchObject({ total: 1, errors: [] });
  });
});

describe("reading slots", () => {
  it("lets `max` read at once and `maxWaiting` wait; one more answers 429 ERR_TOO_MANY_REQUESTS", async () => {
    const slots = createSlots(2, 3);
    await slots.take();
    await slots.take();
    const turns: number[] = [];
    const waiting = [1, 2, 3].map((n) => slots.take().then(() => turns.push(n)));
    expect(slots.waiting).toBe(3);
    const over = await refusal(slots.take());
    expect([over.code, over.status]).toEqual(["ERR_TOO_MANY_REQUESTS", 429]);

    // A slot left goes to the first who waits; then there is room to wait again.
    slots.leave();
    await waiting[0];
    expect(turns).toEqual([1]);
    expect([slots.held, slots.waiting]).toEqual([2, 2]);
    const fourth = slots.take().then(() => turns.push(4));
    for (let i = 0; i < 3; i++) slots.leave();
    await Promise.all([...waiting, fourth]);
    expect(turns).toEqual([1, 2, 3, 4]);
    for (let i = 0; i < 2; i++) slots.leave();
    expect([slots.held, slots.waiting]).toEqual([0, 0]);
  });
});
