import crypto from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileTypeFromBuffer, fileTypeFromFile } from "file-type";
import { AppError } from "../http/errors.js";

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
 * Media files under DATA_DIR/media, one folder per company, with generated names: the type comes
 * from the bytes (not from what the sender claimed; only a WebM declared as audio is taken as audio),
 * and a size limit holds.
 */
export class MediaStore {
  constructor(
    readonly root: string,
    readonly maxBytes: number,
  ) {}

  /** The type `save` would store these bytes as (checked before a file is kept). */
  async typeOf(data: Buffer, declaredMime?: string): Promise<string> {
    return typeOf(await fileTypeFromBuffer(data), declaredMime).mimetype;
  }

  async save(companyId: number, data: Buffer, declaredMime?: string): Promise<StoredMedia> {
    if (data.length > this.maxBytes) throw new AppError("ERR_MEDIA_TOO_LARGE", { maxBytes: this.maxBytes });
    const { mimetype, ext } = typeOf(await fileTypeFromBuffer(data), declaredMime);
    const dir = path.join(this.root, String(companyId));
    await fs.mkdir(dir, { recursive: true });
    const name = `${crypto.randomUUID()}.${ext}`;
    await fs.writeFile(path.join(dir, name), data, { flag: "wx" });
    return { path: `${companyId}/${name}`, mimetype, size: data.length };
  }

  /**
   * Streams a file to disk (never whole in memory): past `maxBytes` the download stops and
   * MediaTooLarge is thrown, leaving nothing behind; the type comes from the written bytes.
   */
  async saveStream(
    companyId: number,
    source: NodeJS.ReadableStream,
    declaredMime?: string,
    maxBytes = this.maxBytes,
  ): Promise<StoredMedia> {
    const dir = path.join(this.root, String(companyId));
    await fs.mkdir(dir, { recursive: true });
    const id = crypto.randomUUID();
    const part = path.join(dir, `.${id}.part`);
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
      const name = `${id}.${ext}`;
      await fs.rename(part, path.join(dir, name));
      return { path: `${companyId}/${name}`, mimetype, size };
    } catch (err) {
      await fs.rm(part, { force: true });
      throw err;
    }
  }

  /** A stored file as a stream (null when it is not there), for copies that need not fit in memory. */
  async open(
    companyId: number,
    relative: string,
  ): Promise<{ stream: NodeJS.ReadableStream; size: number } | null> {
    const file = this.resolve(companyId, relative);
    if (!file) return null;
    const stat = await fs.stat(file).catch(() => null);
    if (!stat) return null;
    return { stream: createReadStream(file), size: stat.size };
  }

  /**
   * Writes a stream to a new file as it arrives (an upload read into memory would be held twice:
   * once as the body, once by whatever reads it), under a generated name with the given extension.
   * A stream that fails leaves no file. Its content is not sniffed: for files only the server
   * reads back (spreadsheets to import), never served as media.
   */
  async saveStreamAs(companyId: number, source: Readable, ext: string): Promise<StoredMedia> {
    if (!/^[a-z0-9]{1,8}$/.test(ext)) throw new Error(`bad extension ${ext}`);
    const dir = path.join(this.root, String(companyId));
    await fs.mkdir(dir, { recursive: true });
    const name = `${crypto.randomUUID()}.${ext}`;
    const file = path.join(dir, name);
    let size = 0;
    source.on("data", (chunk: Buffer) => (size += chunk.length));
    try {
      await pipeline(source, createWriteStream(file, { flags: "wx" }));
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    return { path: `${companyId}/${name}`, mimetype: "application/octet-stream", size };
  }

  /** Removes one stored file (gone already is fine). */
  async remove(companyId: number, relative: string): Promise<void> {
    const file = this.resolve(companyId, relative);
    if (file) await fs.rm(file, { force: true });
  }

  /** The absolute file of a stored path, only inside the company's own folder. */
  resolve(companyId: number, relative: string): string | null {
    const m = /^(\d+)\/([0-9a-f-]{36}\.[a-z0-9]{1,8})$/.exec(relative);
    if (!m || Number(m[1]) !== companyId) return null;
    return path.join(this.root, m[1]!, m[2]!);
  }

  async read(companyId: number, relative: string): Promise<Buffer | null> {
    const file = this.resolve(companyId, relative);
    if (!file) return null;
    return fs.readFile(file).catch(() => null);
  }

  /** Whether the company still keeps the file (a removed or purged one is gone for good). */
  async exists(companyId: number, relative: string): Promise<boolean> {
    const file = this.resolve(companyId, relative);
    if (!file) return false;
    return fs.access(file).then(
      () => true,
      () => false,
    );
  }

  /** Removes every stored file of a company (its folder), after the company itself was deleted. */
  async removeCompany(companyId: number): Promise<void> {
    if (!Number.isSafeInteger(companyId) || companyId <= 0) return;
    await fs.rm(path.join(this.root, String(companyId)), { recursive: true, force: true });
  }
}
