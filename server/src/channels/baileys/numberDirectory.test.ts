import { describe, expect, it, vi } from "vitest";
import { ChannelError } from "../provider.js";
import { memoryAuthStore } from "./fixtures/memoryAuthStore.js";
import { NumberDirectory, type WhatsAppLookup } from "./numberDirectory.js";

/** A clock whose sleep moves it at once: the pauses are measured, never waited. */
function testClock(start = Date.UTC(2030, 2, 4)) {
  const clock = {
    at: start,
    now: () => clock.at,
    sleep: async (ms: number) => void (clock.at += ms),
  };
  return clock;
}

const HOUR = 3600_000;

describe("NumberDirectory: one number", () => {
  it("asks WhatsApp once for a Brazilian mobile and remembers its 8-digit jid", async () => {
    const lookup = vi.fn(async () => [{ jid: "551187654321@s.whatsapp.net", exists: true }]);
    const directory = new NumberDirectory(lookup, undefined, { pauseMs: 0 });
    const to = { number: "5511987654321", isGroup: false };
    expect(await directory.jidFor(to)).toBe("551187654321@s.whatsapp.net");
    expect(await directory.jidFor(to)).toBe("551187654321@s.whatsapp.net");
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup).toHaveBeenCalledWith(["5511987654321", "551187654321"]);
  });

  it("skips the lookup for numbers with one form, and falls back to the plain jid when WhatsApp cannot be asked", async () => {
    const lookup = vi.fn(async () => {
      throw new Error("Connection Closed");
    });
    const directory = new NumberDirectory(lookup, undefined, { pauseMs: 0 });
    expect(await directory.jidFor({ number: "14155550123", isGroup: false })).toBe(
      "14155550123@s.whatsapp.net",
    );
    expect(lookup).not.toHaveBeenCalled();
    expect(await directory.jidFor({ number: "5511987654321", isGroup: false })).toBe(
      "5511987654321@s.whatsapp.net",
    );
  });

  it("refuses to send to a number WhatsApp does not know", async () => {
    const directory = new NumberDirectory(async () => [], undefined, { pauseMs: 0 });
    await expect(directory.jidFor({ number: "5511987654321", isGroup: false })).rejects.toMatchObject({
      retryable: false,
      code: "ERR_WAPP_INVALID_CONTACT",
    });
  });

  it("a query WhatsApp did not answer is a failure to ask, not a number without an account", async () => {
    const lookup = vi.fn<WhatsAppLookup>(async () => undefined);
    const directory = new NumberDirectory(lookup, undefined, { pauseMs: 0 });
    await expect(directory.resolve("14155550123")).rejects.toBeInstanceOf(ChannelError);
    lookup.mockResolvedValue([]);
    expect(await directory.resolve("14155550123")).toBeNull();
  });
});

describe("NumberDirectory: many numbers", () => {
  it("asks many numbers per query, one query at a time with the pause between them, even for callers at once", async () => {
    const clock = testClock();
    const asked: { at: number; phones: string[] }[] = [];
    const directory = new NumberDirectory(
      async (phones) => {
        asked.push({ at: clock.now(), phones });
        clock.at += 300; // WhatsApp takes its time to answer
        return phones
          .filter((p) => p.endsWith("1"))
          .map((p) => ({ jid: `${p}@s.whatsapp.net`, exists: true }));
      },
      undefined,
      { perQuery: 10, pauseMs: 2000, clock },
    );
    const numbers = (from: number) => Array.from({ length: 25 }, (_, i) => `1415555${from + i}`);
    const [a, b] = await Promise.all([
      directory.resolveMany(numbers(1000)),
      directory.resolveMany(numbers(2000)),
    ]);
    expect(asked.map((q) => q.phones.length)).toEqual([10, 10, 10, 10, 5, 5]);
    for (let i = 1; i < asked.length; i++)
      expect(asked[i]!.at - asked[i - 1]!.at).toBeGreaterThanOrEqual(2000 + 300);
    expect(a.get("14155551001")).toBe("14155551001@s.whatsapp.net");
    expect(a.get("14155551002")).toBeNull();
    expect(b.size).toBe(25);
  });

  it("one number's lookup (a send) waits for its turn in the line, not for the bulk checks' pause", async () => {
    const clock = testClock();
    const asked: { at: number; phones: string[] }[] = [];
    const directory = new NumberDirectory(
      async (phones) => {
        asked.push({ at: clock.now(), phones });
        clock.at += 300;
        return phones.map((p) => ({ jid: `${p}@s.whatsapp.net`, exists: true }));
      },
      undefined,
      { perQuery: 10, pauseMs: 2000, clock },
    );
    const list = Array.from({ length: 20 }, (_, i) => `1415555${3000 + i}`);
    await Promise.all([directory.resolveMany(list), directory.resolve("14155559999")]);
    // The single lookup goes as soon as the line is free, between the list's queries; the list's
    // next query still keeps the pause after it.
    expect(asked.map((q) => q.phones.length)).toEqual([10, 1, 10]);
    expect(asked[1]!.at - asked[0]!.at).toBe(300);
    expect(asked[2]!.at - asked[1]!.at).toBeGreaterThanOrEqual(2000 + 300);
  });

  it("keeps answers fresh a week when found and a day when not, in the store another directory reads", async () => {
    const clock = testClock();
    const auth = memoryAuthStore();
    const lookup = vi.fn<WhatsAppLookup>(async (phones) =>
      phones.filter((p) => p === "14155550001").map((p) => ({ jid: `${p}@s.whatsapp.net`, exists: true })),
    );
    const first = new NumberDirectory(lookup, auth.store, { pauseMs: 0, clock });
    await first.resolveMany(["14155550001", "14155550002"]);
    expect(lookup).toHaveBeenCalledTimes(1);

    // Another connection, instance or restart: the store answers.
    const other = new NumberDirectory(lookup, auth.store, { pauseMs: 0, clock });
    expect(await other.resolveMany(["14155550001", "14155550002"])).toEqual(
      new Map([
        ["14155550001", "14155550001@s.whatsapp.net"],
        ["14155550002", null],
      ]),
    );
    expect(lookup).toHaveBeenCalledTimes(1);

    clock.at += 25 * HOUR; // the missing one is asked again, the found one stands
    await other.resolveMany(["14155550001", "14155550002"]);
    expect(lookup).toHaveBeenLastCalledWith(["14155550002"]);
    clock.at += 7 * 24 * HOUR;
    await other.resolveMany(["14155550001"]);
    expect(lookup).toHaveBeenLastCalledWith(["14155550001"]);
    expect(lookup).toHaveBeenCalledTimes(3);
  });

  it("a failed query keeps the answers of those before it: asking again goes on from there", async () => {
    let calls = 0;
    const lookup = vi.fn<WhatsAppLookup>(async () => {
      calls++;
      if (calls === 2) throw new Error("Connection Closed");
      return [];
    });
    const directory = new NumberDirectory(lookup, memoryAuthStore().store, { perQuery: 10, pauseMs: 0 });
    const numbers = Array.from({ length: 30 }, (_, i) => `141555500${String(i).padStart(2, "0")}`);
    await expect(directory.resolveMany(numbers)).rejects.toThrow("Connection Closed");
    const answers = await directory.resolveMany(numbers);
    expect(answers.size).toBe(30);
    // 1 answered, 1 failed, then only the 20 unanswered: 2 more.
    expect(lookup).toHaveBeenCalledTimes(4);
    expect(lookup.mock.calls[2]![0]).toEqual(numbers.slice(10, 20));
  });

  it("an answer in a form none of the numbers has: the numbers left without one are asked alone", async () => {
    // WhatsApp keeps Mexican mobiles as 521 + ten digits; the stored number has no 1.
    const lookup = vi.fn<WhatsAppLookup>(async (phones) =>
      phones.flatMap((p) =>
        p === "525512345678" ? [{ jid: "5215512345678@s.whatsapp.net", exists: true }] : [],
      ),
    );
    const directory = new NumberDirectory(lookup, undefined, { pauseMs: 0 });
    const answers = await directory.resolveMany(["525512345678", "14155550123", "5511987654321"]);
    expect(answers.get("525512345678")).toBe("5215512345678@s.whatsapp.net");
    expect(answers.get("14155550123")).toBeNull();
    expect(answers.get("5511987654321")).toBeNull();
    expect(lookup).toHaveBeenCalledTimes(4);
  });
});
