import crypto from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileTypeFromBuffer } from "file-type";
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

/**
 * Media files under DATA_DIR/media, one folder per company, with generated names: the type comes
 * from the bytes (not from what the sender claimed; only a WebM declared as audio is taken as audio),
 * and a size limit holds.
 */
export class MediaStore {
  constructor(
    readonly root: string,
    private readonly maxBytes: number,
  ) {}

  async save(companyId: number, data: Buffer, declaredMime?: string): Promise<StoredMedia> {
    if (data.length > this.maxBytes) throw new AppError("ERR_MEDIA_TOO_LARGE", { maxBytes: this.maxBytes });
    const sniffed = await fileTypeFromBuffer(data);
    const declared = (declaredMime ?? "").split(";")[0]!.trim().toLowerCase();
    let mimetype: string;
    let ext: string;
    if (sniffed && sniffed.mime === "video/webm" && declared.startsWith("audio/")) {
      // WebM looks the same whether it holds video or only sound (a browser's voice recording):
      // the sender's word settles that one ambiguity, never the family of any other content.
      mimetype = "audio/webm";
      ext = "webm";
    } else if (sniffed) {
      mimetype = sniffed.mime;
      ext = sniffed.ext;
    } else if (UNSNIFFABLE_SAFE.test(declared)) {
      mimetype = declared;
      ext = EXT_BY_MIME[declared] ?? "bin";
    } else {
      mimetype = "application/octet-stream";
      ext = "bin";
    }
    const dir = path.join(this.root, String(companyId));
    await fs.mkdir(dir, { recursive: true });
    const name = `${crypto.randomUUID()}.${ext}`;
    await fs.writeFile(path.join(dir, name), data, { flag: "wx" });
    return { path: `${companyId}/${name}`, mimetype, size: data.length };
  }

  /**
   * Writes a stream to a new file as it arrives (an upload read into memory would be held twice:
   * once as the body, once by whatever reads it), under a generated name with the given extension.
   * A stream that fails leaves no file. Its content is not sniffed: for files only the server
   * reads back (spreadsheets to import), never served as media.
   */
  async saveStream(companyId: number, source: Readable, ext: string): Promise<StoredMedia> {
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

  /** Removes every stored file of a company (its folder), after the company itself was deleted. */
  async removeCompany(companyId: number): Promise<void> {
    if (!Number.isSafeInteger(companyId) || companyId <= 0) return;
    await fs.rm(path.join(this.root, String(companyId)), { recursive: true, force: true });
  }
}
