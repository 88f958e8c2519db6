import { describe, expect, it } from "vitest";
import { GroupCommit } from "./groupCommit.js";

describe("GroupCommit", () => {
  it("writes a lone item at once, then what arrived meanwhile as one batch, in order, capped", async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const firstWritten = new Promise<void>((r) => (release = r));
    const commits = new GroupCommit<number, string>(async (items) => {
      batches.push(items);
      if (items[0] === 0) await firstWritten;
      return items.map((i) => `ok ${i}`);
    }, 3);
    const results = [0, 1, 2, 3, 4].map((i) => commits.submit("lane", i));
    release();
    expect(await Promise.all(results)).toEqual(["ok 0", "ok 1", "ok 2", "ok 3", "ok 4"]);
    expect(batches).toEqual([[0], [1, 2, 3], [4]]);
  });

  it("a failing batch is written again item by item: only the bad item's caller fails", async () => {
    const commits = new GroupCommit<number, number>(async (items) => {
      if (items.includes(13)) throw new Error("bad item");
      return items.map((i) => i * 2);
    });
    const results = await Promise.allSettled([1, 2, 13, 4].map((i) => commits.submit("lane", i)));
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : "failed"))).toEqual([2, 4, "failed", 8]);
  });

  it("lanes do not wait for each other", async () => {
    const order: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const commits = new GroupCommit<string, void>(async (items) => {
      if (items[0] === "a1") await slow;
      order.push(...items);
      return items.map(() => undefined);
    });
    const a = commits.submit("a", "a1");
    await commits.submit("b", "b1");
    release();
    await a;
    expect(order).toEqual(["b1", "a1"]);
  });
});
