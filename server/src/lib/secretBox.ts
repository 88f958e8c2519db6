import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Secrets kept at rest (AI provider keys, bot tokens, service-account JSON, webhook signing
 * secrets, payment gateway keys) are sealed with AES-256-GCM: `v1.` + base64url(iv · tag ·
 * ciphertext). The purpose (e.g. "prompt.apiKey") is the additional authenticated data, so a sealed
 * value copied into another column does not open. Connection API tokens are kept as fingerprints.
 *
 * The key comes from SECRETS_KEY (any string of 32+ characters, hashed to 256 bits; required when
 * several instances share a database), else from a random key generated at first start and kept in
 * the data directory (as the JWT secret is). Losing the key loses the sealed secrets and makes the
 * connection tokens unknown (they must be generated again), nothing else.
 */
export interface SecretBox {
  seal(purpose: string, plain: string): string;
  /** The plain text, or null when the value was sealed with another key or purpose, or is damaged. */
  open(purpose: string, sealed: string): string | null;
  /**
   * A keyed hash (HMAC-SHA256, base64url) of a secret that is looked up but never read back (a
   * connection's API token): the same value gives the same fingerprint, and without the key nobody
   * can test a guess against the stored ones. Its key is derived from the secrets key for `purpose`
   * alone (HKDF), so it is neither the sealing key nor another purpose's.
   */
  fingerprint(purpose: string, value: string): string;
}

const VERSION = "v1.";
/** How every sealed value begins (a LIKE pattern's prefix for the queries that look for clear ones). */
export const SEALED_PREFIX = VERSION;

/** Whether a stored value is in the sealed format (it may still be sealed with another key). */
export function isSealed(value: string): boolean {
  return value.startsWith(VERSION);
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("the secrets key must be 32 bytes");
  const hashKeys = new Map<string, Buffer>();
  const hashKey = (purpose: string) => {
    let derived = hashKeys.get(purpose);
    if (!derived) {
      derived = Buffer.from(crypto.hkdfSync("sha256", key, "", `atende.fingerprint:${purpose}`, 32));
      hashKeys.set(purpose, derived);
    }
    return derived;
  };
  return {
    fingerprint(purpose, value) {
      return crypto.createHmac("sha256", hashKey(purpose)).update(value, "utf8").digest("base64url");
    },
    seal(purpose, plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(purpose));
      const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ct]).toString("base64url");
    },
    open(purpose, sealed) {
      if (!sealed.startsWith(VERSION)) return null;
      const raw = Buffer.from(sealed.slice(VERSION.length), "base64url");
      if (raw.length < 28) return null;
      try {
        const decipher = crypto.createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAAD(Buffer.from(purpose));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}

/** The key a SECRETS_KEY gives: `base64url:<32 bytes>` as it is (a key moved from a data folder), else any text hashed. */
export function keyOfSecretsSetting(configured: string): Buffer {
  if (configured.startsWith(RAW_KEY)) {
    const raw = Buffer.from(configured.slice(RAW_KEY.length), "base64url");
    if (raw.length !== 32) throw new Error("SECRETS_KEY=base64url:... must hold 32 bytes (43 characters)");
    return raw;
  }
  return crypto.createHash("sha256").update(configured).digest();
}
const RAW_KEY = "base64url:";

/** How to set SECRETS_KEY to this very key (what a backup or a move prints for a data folder's key). */
export function secretsSettingOf(key: Buffer): string {
  return RAW_KEY + key.toString("base64url");
}

/** SECRETS_KEY's key, else the data directory's generated key (made on first use). */
export function resolveSecretsKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return keyOfSecretsSetting(configured);
  const file = path.join(dataDir, "secrets-key");
  try {
    const stored = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64url");
    if (stored.length === 32) return stored;
  } catch {
    // not made yet
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key.toString("base64url"), { mode: 0o600, flag: "wx" });
  return key;
}

const boxes = new Map<string, SecretBox>();

/** The deployment's secret box (one per key source, so every module seals with the same key). */
export function secretBoxFor(config: { SECRETS_KEY?: string | undefined; dataDir: string }): SecretBox {
  const id = config.SECRETS_KEY
    ? `env:${crypto.createHash("sha256").update(config.SECRETS_KEY).digest("hex")}`
    : `dir:${config.dataDir}`;
  let box = boxes.get(id);
  if (!box) {
    box = createSecretBox(resolveSecretsKey(config.SECRETS_KEY, config.dataDir));
    boxes.set(id, box);
  }
  return box;
}
