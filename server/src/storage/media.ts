import crypto from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileTypeFromBuffer, fileTypeFromFile } from "file-type";
import type { Config } from "../config.js";
import { AppError } from "../http/errors.js";
import { type BlobStore, LocalBlobs } from "./blobs.js";
import { S3Blobs } from "./s3Blobs.js";

export interface StoredMedia {
  /** Relative to the media root: "{companyId}/{uuid}.{ext}". Never built from user input. */
  path: string;
  mimetype: string;
  size: number;
}

/** Types whose content cannot be sniffed (plain text, some documents): keep the declared type, but never as HTML or script. */
const UNSNIFFABLE_SAFE = /^(text\/plain|text\/csv|text\/vcard|application\/json|application\/octet-stream)$/;

const EXT_BY_MIME: Record<string, string> = {
  "text/plain": "txt",
  "text/csv": "csv",
  "text/vcard": "vcf",
  "application/json": "json",
  "application/octet-stream": "bin",
};

type Sniffed = { mime: string; ext: string } | undefined;

/** The stored type of a file: from its bytes, the sender's word only where the bytes cannot tell. */
function typeOf(sniffed: Sniffed, declaredMime?: string): { mimetype: string; ext: string } {
  const declared = (declaredMime ?? "").split(";")[0]!.trim().toLowerCase();
  // WebM looks the same whether it holds video or only sound (a browser's voice recording):
  // the sender's word settles that one ambiguity, never the family of any other content.
  if (sniffed && sniffed.mime === "video/webm" && declared.startsWith("audio/"))
    return { mimetype: "audio/webm", ext: "webm" };
  if (sniffed) return { mimetype: sniffed.mime, ext: sniffed.ext };
  if (UNSNIFFABLE_SAFE.test(declared)) return { mimetype: declared, ext: EXT_BY_MIME[declared] ?? "bin" };
  return { mimetype: "application/octet-stream", ext: "bin" };
}

/** A stream that was longer than the limit: the part written so far is removed. */
export class MediaTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is over ${maxBytes} bytes`);
    this.name = "MediaTooLarge";
  }
}

/**
 * Media files, one folder (key prefix) per company, with generated names: the type comes from the
 * bytes (not from what the sender claimed; only a WebM declared as audio is taken as audio), and a
 * size limit holds. The bytes live in a blob store: this machine's disk (DATA_DIR/media) or an
 * S3-compatible bucket every instance shares (storage/blobs.ts); names, types and limits are the
 * same on both.
 */
export class MediaStore {
  constructor(
    readonly blobs: BlobStore,
    readonly maxBytes: number,
  ) {}

  /** The type `save` would store these bytes as (checked before a file is kept). */
  async typeOf(data: Buffer, declaredMime?: string): Promise<string> {
    return typeOf(await fileTypeFromBuffer(data), declaredMime).mimetype;
  }

  async save(companyId: number, data: Buffer, declaredMime?: string): Promise<StoredMedia> {
    if (data.length > this.maxBytes) throw new AppError("ERR_MEDIA_TOO_LARGE", { maxBytes: this.maxBytes });
    const { mimetype, ext } = typeOf(await fileTypeFromBuffer(data), declaredMime);
    const stored = `${companyId}/${crypto.randomUUID()}.${ext}`;
    await this.blobs.put(stored, data);
    return { path: stored, mimetype, size: data.length };
  }

  /**
   * Streams a file in (never whole in memory): past `maxBytes` the download stops and MediaTooLarge
   * is thrown, leaving nothing behind. The type comes from the written bytes and names the file, so
   * the bytes go to a scratch file first (on the media disk, then renamed; or on the way to the bucket).
   */
  async saveStream(
    companyId: number,
    source: NodeJS.ReadableStream,
    declaredMime?: string,
    maxBytes = this.maxBytes,
  ): Promise<StoredMedia> {
    const part = await this.blobs.scratchFile();
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) done(new MediaTooLarge(maxBytes));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(part, { flags: "wx" }));
      const { mimetype, ext } = typeOf(await fileTypeFromFile(part), declaredMime);
      const stored = `${companyId}/${crypto.randomUUID()}.${ext}`;
      await this.blobs.putFile(stored, part);
      return { path: stored, mimetype, size };
    } catch (err) {
      await fs.rm(part, { force: true });
      throw err;
    }
  }

  /** A stored file as a stream with its size (null when it is not there): nothing held in memory. */
  async open(companyId: number, relative: string): Promise<{ stream: Readable; size: number } | null> {
    const key = this.keyOf(companyId, relative);
    return key ? this.blobs.get(key) : null;
  }

  /**
   * Writes a stream to a new file as it arrives (an upload read into memory would be held twice:
   * once as the body, once by whatever reads it), under a generated name with the given extension.
   * A stream that fails leaves no file. Its content is not sniffed: for files only the server
   * reads back (spreadsheets to import, through `withLocalFile`), never served as media.
   */
  async saveStreamAs(companyId: number, source: Readable, ext: string): Promise<StoredMedia> {
    if (!/^[a-z0-9]{1,8}$/.test(ext)) throw new Error(`bad extension ${ext}`);
    const stored = `${companyId}/${crypto.randomUUID()}.${ext}`;
    const size = await this.blobs.putStream(stored, source);
    return { path: stored, mimetype: "application/octet-stream", size };
  }

  /** Removes one stored file (gone already is fine). */
  async remove(companyId: number, relative: string): Promise<void> {
    const key = this.keyOf(companyId, relative);
    if (key) await this.blobs.remove(key);
  }

  /** The key of a stored path, only inside the company's own folder (null for any other shape). */
  keyOf(companyId: number, relative: string): string | null {
    const m = /^(\d+)\/([0-9a-f-]{36}\.[a-z0-9]{1,8})$/.exec(relative);
    if (!m || Number(m[1]) !== companyId) return null;
    return relative;
  }

  /**
   * Runs `use` on a file of this machine's disk holding the stored file (itself when the media are
   * on disk, a copy removed afterwards when they are in a bucket); null when it is not there.
   */
  async withLocalFile<T>(
    companyId: number,
    relative: string,
    use: (file: string) => Promise<T>,
  ): Promise<T | null> {
    const key = this.keyOf(companyId, relative);
    return key ? this.blobs.withLocalFile(key, use) : null;
  }

  /** A stored file's bytes, for the callers that send it whole (null when it is not there). */
  async read(companyId: number, relative: string): Promise<Buffer | null> {
    const found = await this.open(companyId, relative);
    if (!found) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of found.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** Whether the company still keeps the file (a removed or purged one is gone for good). */
  async exists(companyId: number, relative: string): Promise<boolean> {
    const key = this.keyOf(companyId, relative);
    return key ? this.blobs.exists(key) : false;
  }

  /** Removes every stored file of a company (its folder), after the company itself was deleted. */
  async removeCompany(companyId: number): Promise<void> {
    if (!Number.isSafeInteger(companyId) || companyId <= 0) return;
    await this.blobs.removePrefix(`${companyId}/`);
  }
}

/** The blob store the configuration names: DATA_DIR/media, or the S3 bucket of MEDIA_STORAGE=s3. */
export function blobStoreFor(config: Config): BlobStore {
  if (config.MEDIA_STORAGE === "local") return new LocalBlobs(path.join(config.dataDir, "media"));
  return new S3Blobs({
    bucket: config.S3_BUCKET!,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE === "true",
    prefix: config.S3_PREFIX,
  });
}

/** A media store on this machine's disk, whose folder tests and tools look into. */
export class LocalMediaStore extends MediaStore {
  constructor(
    readonly root: string,
    maxBytes: number,
  ) {
    super(new LocalBlobs(root), maxBytes);
  }
}
