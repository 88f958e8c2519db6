import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config.js";
import { type Database, openPglite, openPostgres } from "../db/client.js";
import { DataDirLockedError } from "../db/lock.js";
import { keyOfSecretsSetting } from "../lib/secretBox.js";
import type { BlobStore } from "../storage/blobs.js";
import { blobStoreFor } from "../storage/media.js";

/** A refusal an operator's command explains and stops at (no stack trace). */
export class OpsError extends Error {}

/** The deployment's database as the configuration names it; the embedded one only while no server holds it. */
export async function openDeploymentDatabase(config: Config): Promise<Database> {
  if (config.DATABASE_URL) return openPostgres(config.DATABASE_URL, 2);
  try {
    return await openPglite(config.dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError)
      throw new OpsError(
        `${err.message}\nThe embedded database is read only while no server runs on it: stop the server first.`,
      );
    throw err;
  }
}

export function deploymentMedia(config: Config): BlobStore {
  return blobStoreFor(config);
}

/** The keys in effect: from the variables, else the files the server generated in DATA_DIR (null: none yet). */
export function currentKeys(config: Config): { jwtSecret: string | null; secretsKey: Buffer | null } {
  const file = (name: string) => {
    try {
      return fs.readFileSync(path.join(config.dataDir, name), "utf8").trim();
    } catch {
      return null;
    }
  };
  const stored = file("secrets-key");
  return {
    jwtSecret: config.JWT_SECRET ?? file("jwt-secret"),
    secretsKey: config.SECRETS_KEY
      ? keyOfSecretsSetting(config.SECRETS_KEY)
      : stored
        ? Buffer.from(stored, "base64url")
        : null,
  };
}

export async function mediaIsEmpty(blobs: BlobStore): Promise<boolean> {
  for await (const _ of blobs.list()) return false;
  return true;
}

export const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
