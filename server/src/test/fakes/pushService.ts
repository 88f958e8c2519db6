import crypto from "node:crypto";
import { compactVerify, importJWK } from "jose";
import type { PushPayload } from "@atende/contracts";
import { type HttpFake, type Recorded, startHttpFake } from "./httpFake.js";

/**
 * A push service as browsers' are (FCM, Mozilla's autopush, Apple's): it takes pushes for the
 * devices it gave endpoints to, and speaks the real protocol. Each push must carry a VAPID
 * `Authorization: vapid t=<JWT>, k=<key>` (RFC 8292) signed ES256 by that key for this origin, and
 * an `aes128gcm` body (RFC 8188) that this fake decrypts with the device's private key and auth
 * secret (RFC 8291), as the browser would. A device may be made gone: its pushes then answer 410.
 */

/** A browser's subscription, as PushSubscription.toJSON() gives it, and the keys only the device has. */
export interface FakeDevice {
  id: string;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** What the device received and could decrypt, in order. */
  received: ReceivedPush[];
}

export interface ReceivedPush {
  payload: PushPayload;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  /** The VAPID key that signed it (base64url), and the JWT's claims. */
  vapidKey: string;
  claims: { aud: string; exp: number; sub: string };
}

export interface PushServiceFake {
  url: string;
  /** A new device, as a browser subscribing to this service with the server's key. */
  device(): FakeDevice;
  /** From now on the device's pushes answer 410 Gone (unsubscribed in the browser, expired). */
  gone(device: FakeDevice): void;
  /** Pushes refused by the protocol checks (a bad signature, a body that does not decrypt), with why. */
  refused: string[];
  requests: Recorded[];
  close(): Promise<void>;
}

const b64 = (buf: Buffer) => buf.toString("base64url");

/** RFC 8291 §3.4 and RFC 8188 §2: the aes128gcm body decrypted with the device's keys. */
function decrypt(body: Buffer, ecdh: crypto.ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not the sender's 65-byte key`);
  if (ciphertext.length > recordSize) throw new Error("more than one record");
  const shared = ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(crypto.hkdfSync("sha256", shared, authSecret, keyInfo, 32));
  const cek = Buffer.from(
    crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16),
  );
  const nonce = Buffer.from(
    crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12),
  );
  const decipher = crypto.createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end);
}

/** RFC 8292: `vapid t=<JWT>, k=<key>`, the JWT signed ES256 by k, for this service's origin, not expired. */
async function checkVapid(header: string | undefined, origin: string) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!m) throw new Error(`no VAPID authorization: ${header}`);
  const [, jwt, key] = m as unknown as [string, string, string];
  const raw = Buffer.from(key, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) throw new Error("k is not an uncompressed P-256 key");
  const publicKey = await importJWK(
    { kty: "EC", crv: "P-256", x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33)) },
    "ES256",
  );
  const { payload } = await compactVerify(jwt, publicKey);
  const claims = JSON.parse(Buffer.from(payload).toString("utf8")) as ReceivedPush["claims"];
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud} is not ${origin}`);
  const now = Math.floor(Date.now() / 1000);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error("exp not within 24 hours");
  if (!/^(mailto:|https:)/.test(claims.sub ?? "")) throw new Error(`sub ${claims.sub} is no contact`);
  return { vapidKey: key, claims };
}

export async function startPushService(): Promise<PushServiceFake> {
  const devices = new Map<string, { device: FakeDevice; ecdh: crypto.ECDH; auth: Buffer; gone: boolean }>();
  const refused: string[] = [];
  let origin = "";

  const fake: HttpFake = await startHttpFake(async (req) => {
    const id = /^\/push\/([\w-]+)$/.exec(req.path)?.[1];
    const held = id ? devices.get(id) : undefined;
    if (req.method !== "POST" || !held) return { status: 404, body: "no such subscription" };
    if (held.gone) return { status: 410, body: "subscription expired" };
    try {
      const { vapidKey, claims } = await checkVapid(req.headers.authorization, origin);
      if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) throw new Error("no TTL");
      const plain = decrypt(req.raw, held.ecdh, held.auth);
      held.device.received.push({
        payload: JSON.parse(plain.toString("utf8")) as PushPayload,
        ttl,
        urgency: req.headers.urgency as string | undefined,
        topic: req.headers.topic as string | undefined,
        vapidKey,
        claims,
      });
      return { status: 201 };
    } catch (err) {
      refused.push((err as Error).message);
      return { status: 400, body: (err as Error).message };
    }
  });
  origin = new URL(fake.url).origin;

  return {
    url: fake.url,
    requests: fake.requests,
    refused,
    device() {
      const ecdh = crypto.createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const id = crypto.randomUUID();
      const device: FakeDevice = {
        id,
        subscription: {
          endpoint: `${fake.url}/push/${id}`,
          keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(auth) },
        },
        received: [],
      };
      devices.set(id, { device, ecdh, auth, gone: false });
      return device;
    },
    gone(device) {
      devices.get(device.id)!.gone = true;
    },
    close: () => fake.close(),
  };
}
