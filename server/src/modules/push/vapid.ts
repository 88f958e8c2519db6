import fs from "node:fs";
import path from "node:path";
import webpush from "web-push";
import type { Config } from "../../config.js";

/** The server's Web Push identity (RFC 8292): the key pair that signs every push, and a contact. */
export interface Vapid {
  publicKey: string;
  privateKey: string;
  subject: string;
}

type VapidConfig = Pick<
  Config,
  "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT" | "PUBLIC_URL" | "MAIL_FROM" | "dataDir"
>;

const FILE = "vapid-keys.json";
const held = new Map<string, Vapid>();

/** The contact push services may write to: VAPID_SUBJECT, PUBLIC_URL when https, else MAIL_FROM's address. */
function subjectOf(config: VapidConfig): string {
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  if (config.PUBLIC_URL.startsWith("https://")) return new URL(config.PUBLIC_URL).origin;
  const address = /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();
  return `mailto:${address}`;
}

/** The pair kept in DATA_DIR, made at the first start (readable by this user only, as jwt-secret). */
function keysInDataDir(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, FILE);
  try {
    const kept = JSON.parse(fs.readFileSync(file, "utf8")) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === "string" && typeof kept.privateKey === "string")
      return { publicKey: kept.publicKey, privateKey: kept.privateKey };
  } catch {
    // Not made yet (or unreadable): a new pair below.
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/**
 * The deployment's VAPID identity: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set, else the pair
 * generated into DATA_DIR. Read once per source, as the secrets key is.
 */
export function vapidFor(config: VapidConfig): Vapid {
  const source = config.VAPID_PUBLIC_KEY ? `env:${config.VAPID_PUBLIC_KEY}` : `dir:${config.dataDir}`;
  let vapid = held.get(source);
  if (!vapid) {
    const keys =
      config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
        ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
        : keysInDataDir(config.dataDir);
    vapid = { ...keys, subject: subjectOf(config) };
    held.set(source, vapid);
  }
  return vapid;
}
