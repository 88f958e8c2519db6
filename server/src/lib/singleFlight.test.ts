import { describe, expect, it } from "vitest";
import { SingleFlight } from "./singleFlight.js";

/** A read the test answers when it chooses. */
function gate<V>() {
  let open!: (v: V) => void;
  let fail!: (e: Error) => void;
  const promise = new Promise<V>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe("SingleFlight", () => {
  it("answers asks for one key made while it is pending with one read", async () => {
    const flights = new SingleFlight<string, number>();
    const read = gate<number>();
    let reads = 0;
    const work = () => {
      reads++;
      return read.promise;
    };
    const asks = [flights.run("s1", work), flights.run("s1", work), flights.run("s1", work)];
    read.open(7);
    expect(await Promise.all(asks)).toEqual([7, 7, 7]);
    expect(reads).toBe(1);
  });

  it("reads again once the answer is in, and for another key at once", async () => {
    const flights = new SingleFlight<string, string>();
    let reads = 0;
    const work = (v: string) => async () => {
      reads++;
      return v;
    };
    const [a, b] = await Promise.all([flights.run("a", work("A")), flights.run("b", work("B"))]);
    expect([a, b]).toEqual(["A", "B"]);
    expect(await flights.run("a", work("A2"))).toBe("A2");
    expect(reads).toBe(3);
  });

  it("shares a failure with those who waited, and does not keep it", async () => {
    const flights = new SingleFlight<string, number>();
    const read = gate<number>();
    const first = flights.run("k", () => read.promise);
    const second = flights.run("k", () => Promise.resolve(99));
    read.fail(new Error("database unreachable"));
    await expect(first).rejects.toThrow("database unreachable");
    await expect(second).rejects.toThrow("database unreachable");
    expect(await flights.run("k", () => Promise.resolve(1))).toBe(1);
  });
});
