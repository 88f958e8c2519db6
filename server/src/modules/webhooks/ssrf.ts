import dns from "node:dns";
import net from "node:net";
import { AppError } from "../../http/errors.js";

/**
 * No SSRF through webhooks: a receiver must be a public address. Checked when a subscription is
 * saved, and again on every delivery through the socket's own DNS lookup (a name that resolves to a
 * public address at save time and to 127.0.0.1 later is refused then too).
 */

const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net4, prefix, "ipv4");
for (const [net6, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const)
  blocked.addSubnet(net6, prefix, "ipv6");

/** Whether an IP address is internal (IPv4-mapped IPv6 judged by its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  const family = net.isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The URL as a receiver's: http(s), with a host, no credentials. Throws ERR_WEBHOOK_URL_INVALID. */
export function receiverUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("ERR_WEBHOOK_URL_INVALID");
  }
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    !url.hostname ||
    url.username ||
    url.password
  )
    throw new AppError("ERR_WEBHOOK_URL_INVALID");
  return url;
}

/** Throws ERR_WEBHOOK_URL_FORBIDDEN when the URL's host is or resolves to an internal address. */
export async function assertPublicUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = receiverUrl(raw);
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw new AppError("ERR_WEBHOOK_URL_INVALID");
    }
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress))
    throw new AppError("ERR_WEBHOOK_URL_FORBIDDEN");
  return url;
}

/** A `lookup` for http.request that refuses internal addresses at connect time (DNS rebinding). */
export function publicOnlyLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as dns.LookupAddress[];
      const bad = !allowPrivate && list.some((a) => isPrivateAddress(a.address));
      if (bad || list.length === 0)
        return callback(
          Object.assign(new Error("the receiver resolves to an internal address"), { code: "EPRIVATE" }),
          "",
          0,
        );
      if ((options as dns.LookupOptions).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
