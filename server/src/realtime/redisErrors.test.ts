import { ErrorReply, SocketClosedUnexpectedlyError, createClient } from "redis";
import { describe, expect, it } from "vitest";
import { isRedisConnectionLost } from "./redisErrors.js";

describe("isRedisConnectionLost", () => {
  it("is true of a lost connection, as the client raises it", async () => {
    expect(isRedisConnectionLost(new SocketClosedUnexpectedlyError())).toBe(true);
    // A command on a client that is not connected fails the way the adapter's does mid-outage.
    const client = createClient({ url: "redis://127.0.0.1:1" });
    const failed = await client.publish("atende-test", "x").catch((err: unknown) => err);
    expect(isRedisConnectionLost(failed)).toBe(true);
  });

  it("is false of Redis refusing a command, and of anything else", () => {
    expect(isRedisConnectionLost(new ErrorReply("WRONGTYPE Operation against a key"))).toBe(false);
    expect(isRedisConnectionLost(new TypeError("x is undefined"))).toBe(false);
    expect(isRedisConnectionLost(undefined)).toBe(false);
  });
});
