import os from "node:os";
import ipaddr from "ipaddr.js";

/**
 * The address rules of outbound calls (lib/outbound.ts): the server connects only to public unicast
 * addresses, as ipaddr.js names its ranges ("unicast", nothing else: loopback, private, link-local,
 * carrier-grade NAT, documentation, benchmarking, multicast, reserved... are all refused). IPv6
 * addresses that carry an IPv4 one (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 inside them, and this host's own interface
 * addresses are refused whatever their range.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Why an address is refused: the ipaddr.js range name, "own address", or "not an address". */
export type Refusal = string;

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64 /96, 6to4), or null. */
export function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  // ::a.b.c.d (IPv4-compatible, deprecated): ipaddr.js calls it unicast, the socket reaches the IPv4.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return v4(p[6]!, p[7]!);
  // 64:ff9b::/96, the well-known NAT64 prefix: the IPv4 is the last 32 bits.
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return v4(p[6]!, p[7]!);
  // 2002:AABB:CCDD::/48, 6to4: the IPv4 follows the prefix.
  if (p[0] === 0x2002) return v4(p[1]!, p[2]!);
  return null;
}

/**
 * How long this host's addresses are believed: reading them (os.networkInterfaces, then parsing
 * each) cost a fifth of a millisecond per outbound call, on every webhook delivery. An address
 * added to an interface is judged as this host's within this.
 */
const OWN_ADDRESSES_MS = 1_000;
let ownRead: { at: number; addresses: ReadonlySet<string> } | null = null;

/** This host's interface addresses (loopback included), normalised; read again each second. */
export function ownAddresses(): ReadonlySet<string> {
  const at = performance.now();
  if (ownRead && at - ownRead.at < OWN_ADDRESSES_MS) return ownRead.addresses;
  ownRead = { at, addresses: readOwnAddresses() };
  return ownRead.addresses;
}

function readOwnAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const i of list ?? []) {
      const ip = parsed(i.address);
      if (ip) own.add(ip.toNormalizedString());
    }
  return own;
}

/** An address as a URL's host or an interface names it, without its brackets and zone ("%eth0"). */
export function normalise(address: string): string {
  return address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
}

/** The address parsed (brackets and zone dropped), or null when it is not one. */
function parsed(address: string): Address | null {
  const bare = normalise(address);
  // ipaddr.isValid accepts the shapes a socket would also read (0x7f000001, 0177.0.0.1, 2130706433).
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : null;
}

/**
 * Why the server must not connect to `address`, or null when it is a public unicast address that
 * is not this host's. `own` defaults to this host's interface addresses.
 */
export function refusalOf(address: string, own: ReadonlySet<string> = ownAddresses()): Refusal | null {
  let ip = parsed(address);
  if (!ip) return "not an address";
  if (own.has(ip.toNormalizedString())) return "own address";
  if (ip.kind() === "ipv6") {
    const inside = embeddedIpv4(ip as ipaddr.IPv6);
    if (inside) ip = inside;
    // 64:ff9b:1::/48 is local-use NAT64, where the IPv4 sits by the operator's prefix length.
    else if (ip.range() !== "unicast") return ip.range();
  }
  if (own.has(ip.toNormalizedString())) return "own address";
  const range = ip.range();
  return range === "unicast" ? null : range;
}

/** One allowance entry: an address or CIDR range, with an optional port. */
interface AllowEntry {
  range: [Address, number];
  port: number | null;
}

/**
 * Private addresses a deployment allows anyway, for tests whose fakes listen on loopback
 * (OUTBOUND_ALLOW_PRIVATE): `*` allows every address; else a comma-separated list of addresses or
 * CIDR ranges, each with an optional port: `127.0.0.1:4000`, `[::1]:4000`, `127.0.0.0/8`, `::1`.
 */
export class Allowance {
  private constructor(
    private readonly entries: AllowEntry[],
    readonly any: boolean,
  ) {}

  static readonly none = new Allowance([], false);

  /** Parses the setting; throws with the entry it cannot read. */
  static parse(spec: string): Allowance {
    const items = spec
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (items.includes("*")) return new Allowance([], true);
    return new Allowance(items.map(parseEntry), false);
  }

  get empty(): boolean {
    return !this.any && this.entries.length === 0;
  }

  /** Whether connecting to `address` on `port` is allowed although the address is not public. */
  allows(address: string, port: number): boolean {
    if (this.any) return true;
    const ip = parsed(address);
    if (!ip) return false;
    const forms: Address[] = [ip];
    if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress())
      forms.push((ip as ipaddr.IPv6).toIPv4Address());
    return this.entries.some(
      (e) =>
        (e.port === null || e.port === port) &&
        forms.some((f) => f.kind() === e.range[0].kind() && f.match(e.range)),
    );
  }
}

function parseEntry(item: string): AllowEntry {
  let host = item;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(item);
  const v4Port = /^([^:]+):(\d+)$/.exec(item);
  if (bracketed) [host, port] = [bracketed[1]!, bracketed[2] ? Number(bracketed[2]) : null];
  else if (v4Port) [host, port] = [v4Port[1]!, Number(v4Port[2])];
  if (port !== null && (port < 1 || port > 65535)) throw new Error(`"${item}": the port is out of range`);
  try {
    const range: [Address, number] = host.includes("/")
      ? ipaddr.parseCIDR(host)
      : [ipaddr.parse(host), ipaddr.parse(host).kind() === "ipv4" ? 32 : 128];
    return { range, port };
  } catch {
    throw new Error(`"${item}" is not an address, a CIDR range or either with a port`);
  }
}
