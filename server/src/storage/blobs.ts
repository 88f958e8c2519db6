import crypto from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Where media bytes live: a folder on this machine's disk (the default) or an S3-compatible bucket
 * (storage/s3Blobs.ts), so that every instance of a deployment reads what any other stored.
 *
 * A blob store only keeps bytes under keys ("{companyId}/{uuid}.{ext}", "logos/{name}"); the media
 * store above it (storage/media.ts) names the keys, sniffs the types and holds the size limits, the
 * same for both. Everything streams: no method reads a whole file into memory except `put`, whose
 * caller already holds the bytes.
 */
export interface BlobStore {
  readonly kind: "local" | "s3";
  /** Where the blobs are, for the start line and the backup manifest ("/data/media", "s3://bucket/prefix"). */
  readonly location: string;
  /** Writes bytes already in memory under a new key. */
  put(key: string, data: Buffer): Promise<void>;
  /** Streams into a new key; a stream that fails leaves nothing behind. Answers the bytes written. */
  putStream(key: string, source: Readable): Promise<number>;
  /** Takes a finished scratch file (from `scratchFile`) as the key's content; the file is gone after. */
  putFile(key: string, file: string): Promise<void>;
  /** A fresh path for a file being written before its key is known (same disk as the blobs when local). */
  scratchFile(): Promise<string>;
  /** The key's content as a stream with its size, or null when there is no such key. */
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  exists(key: string): Promise<boolean>;
  /** Removes one key (gone already is fine). */
  remove(key: string): Promise<void>;
  /** Removes every key under a prefix ("12/"). */
  removePrefix(prefix: string): Promise<void>;
  /** Every key (under a prefix), with its size, in no particular order. */
  list(prefix?: string): AsyncIterable<{ key: string; size: number }>;
  /**
   * Runs `use` on a local file holding the key's content (the file itself on disk; a scratch copy,
   * removed afterwards, from a bucket), or answers null when there is no such key.
   */
  withLocalFile<T>(key: string, use: (file: string) => Promise<T>): Promise<T | null>;
}

/** Keys are made by the media store, never from user input; this refuses anything that could leave the root. */
export function checkKey(key: string): string {
  if (!/^[\w-]+(\/[\w-][\w.-]*)+$/.test(key) || key.includes(".."))
    throw new Error(`bad media key ${JSON.stringify(key)}`);
  return key;
}

const SCRATCH = ".scratch";

/** Blobs as files under one folder (DATA_DIR/media): a key is a relative path. */
export class LocalBlobs implements BlobStore {
  readonly kind = "local";
  constructor(readonly root: string) {}

  get location() {
    return this.root;
  }

  private file(key: string) {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, data: Buffer) {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, data, { flag: "wx" });
  }

  async putStream(key: string, source: Readable) {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    let size = 0;
    source.on("data", (chunk: Buffer) => (size += chunk.length));
    try {
      await pipeline(source, createWriteStream(file, { flags: "wx" }));
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    return size;
  }

  async putFile(key: string, scratch: string) {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.rename(scratch, file);
  }

  async scratchFile() {
    const dir = path.join(this.root, SCRATCH);
    await fs.mkdir(dir, { recursive: true });
    return path.join(dir, `${crypto.randomUUID()}.part`);
  }

  async get(key: string) {
    const file = this.file(key);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) return null;
    return { stream: createReadStream(file), size: stat.size };
  }

  async exists(key: string) {
    return (await fs.stat(this.file(key)).catch(() => null))?.isFile() === true;
  }

  async remove(key: string) {
    await fs.rm(this.file(key), { force: true });
  }

  async removePrefix(prefix: string) {
    if (!/^[\w-]+\/$/.test(prefix)) throw new Error(`bad media prefix ${prefix}`);
    await fs.rm(path.join(this.root, prefix), { recursive: true, force: true });
  }

  async *list(prefix = "") {
    const walk = async function* (dir: string, rel: string): AsyncGenerator<{ key: string; size: number }> {
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        // Scratch files and parts being written are nobody's blobs yet.
        if (e.name.startsWith(".")) continue;
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) yield* walk(path.join(dir, e.name), key);
        else if (e.isFile() && key.startsWith(prefix))
          yield { key, size: (await fs.stat(path.join(dir, e.name))).size };
      }
    };
    yield* walk(this.root, "");
  }

  async withLocalFile<T>(key: string, use: (file: string) => Promise<T>) {
    const file = this.file(key);
    if (!(await this.exists(key))) return null;
    return use(file);
  }
}
