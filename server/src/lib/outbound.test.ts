import os from "node:os";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Listener, listen } from "../test/fakes/listener.js";
import { OutboundInvalid, OutboundRefused, OutboundTooLarge, createOutbound } from "./outbound.js";
import { Allowance, ownAddresses, refusalOf } from "./outboundAddress.js";

/**
 * The one way out (lib/outbound.ts): which addresses the server may reach, and a client that holds
 * to it at connect time, on every redirect hop, within a byte cap and a deadline. The listeners are
 * on loopback: a client with no allowance must never reach them.
 */

describe("the address rule", () => {
  /** Every spelling of an internal address the probe tried, as a URL would carry it. */
  const refused = [
    "http://127.0.0.1/",
    "http://0x7f000001/",
    "http://0177.0.0.1/",
    "http://2130706433/",
    "http://[::1]/",
    "http://[::7f00:1]/", // IPv4-compatible
    "http://[::ffff:127.0.0.1]/", // IPv4-mapped
    "http://[64:ff9b::7f00:1]/", // NAT64
    "http://[2002:7f00:1::]/", // 6to4
    "http://[64:ff9b::a9fe:a9fe]/", // NAT64 of the metadata service
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", // Teredo
    "http://192.0.2.1/", // documentation
    "http://198.51.100.7/",
    "http://203.0.113.9/",
    "http://198.18.0.1/", // benchmarking
    "http://169.254.169.254/", // link-local, cloud metadata
    "http://10.1.2.3/",
    "http://172.20.0.1/",
    "http://192.168.0.10/",
    "http://100.64.1.1/", // carrier-grade NAT
    "http://0.0.0.0/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[2001:db8::1]/",
    "http://[::]/",
  ];

  it.each(refused)("refuses %s", (raw) => {
    expect(refusalOf(new URL(raw).hostname, new Set())).not.toBeNull();
  });

  it.each([
    "http://8.8.8.8/",
    "http://1.1.1.1/",
    "http://[2606:4700::1111]/",
    "http://[64:ff9b::808:808]/", // NAT64 of 8.8.8.8
    "http://[2002:808:808::]/", // 6to4 of 8.8.8.8
    "http://[::ffff:8.8.8.8]/",
  ])("lets the public address %s through", (raw) => {
    expect(refusalOf(new URL(raw).hostname, new Set())).toBeNull();
  });

  it("refuses this host's own interface addresses, whatever their range", () => {
    const own = ownAddresses();
    expect(own.size).toBeGreaterThan(0);
    for (const list of Object.values(os.networkInterfaces()))
      for (const i of list ?? []) expect(refusalOf(i.address), i.address).not.toBeNull();
    // A public address is refused once it is one of this host's (the probe's webhook reached the app).
    expect(refusalOf("8.8.4.4", new Set(["8.8.4.4"]))).toBe("own address");
    expect(refusalOf("::ffff:8.8.4.4", new Set(["8.8.4.4"]))).toBe("own address");
  });

  it("reads the allowance: addresses, ranges, ports, or every address; nothing else", () => {
    const a = Allowance.parse("127.0.0.1:4000, [::1]:4001, 10.0.0.0/8");
    expect(a.allows("127.0.0.1", 4000)).toBe(true);
    expect(a.allows("::ffff:127.0.0.1", 4000)).toBe(true);
    expect(a.allows("127.0.0.1", 4001)).toBe(false);
    expect(a.allows("::1", 4001)).toBe(true);
    expect(a.allows("10.9.8.7", 1)).toBe(true);
    expect(a.allows("192.168.0.1", 4000)).toBe(false);
    expect(Allowance.parse("*").allows("169.254.169.254", 80)).toBe(true);
    expect(Allowance.parse("").empty).toBe(true);
    for (const bad of ["localhost", "127.0.0.1:0", "10.0.0.0/33", "[::1]:x"])
      expect(() => Allowance.parse(bad), bad).toThrow();
  });
});

describe("the outbound client", () => {
  let target: Listener;
  beforeAll(async () => {
    target = await listen((req, res) => {
      if (req.url === "/big") {
        // No Content-Length: the cap has to stop the stream itself.
        res.write(Buffer.alloc(40_000));
        res.write(Buffer.alloc(40_000));
        return res.end();
      }
      if (req.url === "/declared") {
        res.writeHead(200, { "content-length": "2000000" });
        return res.end(Buffer.alloc(2_000_000));
      }
      if (req.url === "/never") return; // no answer at all
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ path: req.url }));
    });
  });
  afterAll(() => target.close());

  it("refuses a loopback receiver before any byte leaves, by address and by a name that resolves to it", async () => {
    const closed = createOutbound();
    for (const url of [
      `${target.url}/a`,
      `http://localhost:${target.port}/b`,
      `http://[::ffff:127.0.0.1]:${target.port}/c`,
      `http://0x7f000001:${target.port}/d`,
    ])
      await expect(closed.fetch(url), url).rejects.toBeInstanceOf(OutboundRefused);
    expect(target.seen).toEqual([]);
    expect(await closed.check(`${target.url}/a`)).toEqual({ ok: false, reason: "forbidden" });
    expect(await closed.check(`http://localhost:${target.port}/`)).toEqual({
      ok: false,
      reason: "forbidden",
    });
    expect(await closed.check("http://[::7f00:1]/")).toEqual({ ok: false, reason: "forbidden" });
    expect(await closed.check("http://user:pass@8.8.8.8/")).toEqual({ ok: false, reason: "invalid" });
    expect((await closed.check("https://8.8.8.8/hook")).ok).toBe(true);
  });

  it("reaches only the address:port the allowance names", async () => {
    const narrow = createOutbound(`127.0.0.1:${target.port}`);
    expect(await (await narrow.fetch(`${target.url}/ok`)).json()).toEqual({ path: "/ok" });
    const other = await listen((_req, res) => res.end("other"));
    try {
      await expect(narrow.fetch(`${other.url}/x`)).rejects.toBeInstanceOf(OutboundRefused);
      expect(other.seen).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("does not follow a redirect from an allowed address to a refused one", async () => {
    const inside = await listen((_req, res) => res.end("secret"));
    const bouncer = await listen((req, res) => {
      const location =
        req.url === "/named"
          ? `http://localhost:${inside.port}/s`
          : req.url === "/file"
            ? "file:///etc/passwd"
            : `${inside.url}/s`;
      res.writeHead(302, { location });
      res.end();
    });
    try {
      const client = createOutbound(`127.0.0.1:${bouncer.port}`);
      await expect(client.fetch(`${bouncer.url}/`)).rejects.toBeInstanceOf(OutboundRefused);
      await expect(client.fetch(`${bouncer.url}/named`)).rejects.toBeInstanceOf(OutboundRefused);
      // The client's own refusals are final, never a socket's TypeError a caller would retry.
      await expect(client.fetch(`${bouncer.url}/file`)).rejects.toBeInstanceOf(OutboundInvalid);
      expect(bouncer.seen).toEqual(["/", "/named", "/file"]);
      expect(inside.seen).toEqual([]);
      // With both allowed the hop is followed, and hops are capped.
      const both = createOutbound(`127.0.0.1:${bouncer.port},127.0.0.1:${inside.port}`);
      expect(await (await both.fetch(`${bouncer.url}/`)).text()).toBe("secret");
      expect((await both.fetch(`${bouncer.url}/`, { redirects: 0 })).status).toBe(302);
      const looping = await listen((_req, res) => {
        res.writeHead(302, { location: "/again" });
        res.end();
      });
      try {
        const loop = createOutbound(`127.0.0.1:${looping.port}`);
        const failed = await loop.fetch(`${looping.url}/`).catch((e: unknown) => e);
        expect(failed).toBeInstanceOf(OutboundInvalid);
        expect(failed).not.toBeInstanceOf(TypeError);
        await expect(loop.fetch("ftp://example.com/")).rejects.toBeInstanceOf(OutboundInvalid);
      } finally {
        await looping.close();
      }
    } finally {
      await inside.close();
      await bouncer.close();
    }
  });

  it("cuts an answer past the byte cap and fails the read, declared or streamed", async () => {
    const client = createOutbound(`127.0.0.1:${target.port}`);
    const streamed = await client.fetch(`${target.url}/big`, { maxBytes: 50_000 });
    await expect(streamed.arrayBuffer()).rejects.toBeInstanceOf(OutboundTooLarge);
    await expect(client.fetch(`${target.url}/declared`)).rejects.toBeInstanceOf(OutboundTooLarge);
    // Under the cap it is read whole.
    expect(
      (await (await client.fetch(`${target.url}/big`, { maxBytes: 80_000 })).arrayBuffer()).byteLength,
    ).toBe(80_000);
  });

  it("gives up at the deadline", async () => {
    const client = createOutbound(`127.0.0.1:${target.port}`);
    const failed = await client.fetch(`${target.url}/never`, { timeoutMs: 200 }).catch((e: Error) => e);
    expect((failed as Error).name).toBe("TimeoutError");
  });

  it("gives up at the deadline also when garbage is collected meanwhile", async () => {
    // The deadline once was AbortSignal.timeout inside AbortSignal.any, which Node holds weakly: a
    // collection during the call dropped it, and a server that never answered held the call forever.
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const client = createOutbound(`127.0.0.1:${target.port}`);
    const call = client.fetch(`${target.url}/never`, { timeoutMs: 300 }).catch((e: Error) => e);
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    const failed = await call;
    expect((failed as Error).name).toBe("TimeoutError");
  }, 5_000);

  it("trusts the origin of a base the operator configured, and only that origin", async () => {
    const closed = createOutbound();
    const res = await closed.fetch(`${target.url}/v1/chat`, { trustedBase: `${target.url}/v1` });
    expect(await res.json()).toEqual({ path: "/v1/chat" });
    const other = await listen((_req, res) => res.end("other"));
    try {
      await expect(
        closed.fetch(`${other.url}/x`, { trustedBase: `${target.url}/v1` }),
      ).rejects.toBeInstanceOf(OutboundRefused);
      expect(other.seen).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
