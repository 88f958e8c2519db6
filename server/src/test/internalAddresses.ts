import os from "node:os";

/**
 * Internal addresses as the issue 32 probe spelled them in URLs (IPv4-compatible, NAT64, 6to4,
 * IPv4-mapped, hex and octal IPv4, documentation, cloud metadata): the SSRF tests refuse each one
 * wherever a company types a URL.
 */
export const PROBE_HOSTS = [
  "[::7f00:1]",
  "[64:ff9b::7f00:1]",
  "[2002:7f00:1::]",
  "[::ffff:127.0.0.1]",
  "0x7f000001",
  "0177.0.0.1",
  "192.0.2.1",
  "169.254.169.254",
];

/** The host's first non-loopback interface address, as a URL host (the probe's way back in). */
export function ownHost(): string | null {
  for (const list of Object.values(os.networkInterfaces()))
    for (const i of list ?? [])
      if (!i.internal) return i.family === "IPv6" ? `[${i.address.replace(/%.*$/, "")}]` : i.address;
  return null;
}
