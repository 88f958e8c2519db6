import type { Readable, Writable } from "node:stream";
import { once } from "node:events";

/**
 * The POSIX ustar format, enough for a backup archive (regular files, names up to 255 bytes), read
 * and written as streams: `tar -tzf backup.tar.gz` lists one, `tar -xzf` unpacks it.
 */
const BLOCK = 512;

function header(name: string, size: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK);
  let prefix = "";
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf("/", 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100)
      throw new Error(`name too long for tar: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  const put = (value: string, offset: number, length: number) => h.write(value, offset, length, "utf8");
  const octal = (value: number, offset: number, length: number) =>
    put(value.toString(8).padStart(length - 1, "0") + "\0", offset, length);
  put(base, 0, 100);
  octal(0o600, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(Math.floor(mtime.getTime() / 1000), 136, 12);
  h.fill(" ", 148, 156);
  put("0", 156, 1);
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  put(prefix, 345, 155);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
  return h;
}

/** Writes entries one after another into `out` (waiting when it is full). */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer) {
    if (!this.out.write(chunk)) await once(this.out, "drain");
  }

  async file(name: string, data: Buffer, mtime = new Date()) {
    await this.write(header(name, data.length, mtime));
    await this.write(data);
    await this.pad(data.length);
  }

  /** A file streamed from `source`, which must hold exactly `size` bytes. */
  async stream(name: string, size: number, source: Readable, mtime = new Date()) {
    await this.write(header(name, size, mtime));
    let written = 0;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      written += chunk.length;
      if (written > size) throw new Error(`${name} grew past ${size} bytes while it was read`);
      await this.write(chunk);
    }
    if (written !== size) throw new Error(`${name} had ${written} bytes, not ${size}`);
    await this.pad(size);
  }

  private async pad(size: number) {
    const rest = size % BLOCK;
    if (rest) await this.write(Buffer.alloc(BLOCK - rest));
  }

  async end() {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.out.end();
    await once(this.out, "finish");
  }
}

/** Reads a tar stream's regular files in order; each entry's bytes must be consumed before the next. */
export async function* readTar(
  input: AsyncIterable<Buffer>,
): AsyncGenerator<{ name: string; size: number; read: () => AsyncGenerator<Buffer> }> {
  const iterator = input[Symbol.asyncIterator]();
  let pending: Buffer = Buffer.alloc(0);
  let done = false;
  /** Up to `max` bytes, as soon as any are there (null at the end of the input). */
  async function some(max: number): Promise<Buffer | null> {
    if (!pending.length && !done) {
      const next = await iterator.next();
      if (next.done) done = true;
      else pending = next.value;
    }
    if (!pending.length) return null;
    const out = pending.subarray(0, max);
    pending = pending.subarray(out.length);
    return out;
  }
  async function take(n: number): Promise<Buffer | null> {
    while (pending.length < n && !done) {
      const next = await iterator.next();
      if (next.done) done = true;
      else pending = pending.length ? Buffer.concat([pending, next.value]) : next.value;
    }
    if (pending.length < n) return null;
    const out = pending.subarray(0, n);
    pending = pending.subarray(n);
    return out;
  }
  for (;;) {
    const h = await take(BLOCK);
    if (!h || h.every((b) => b === 0)) return;
    const text = (offset: number, length: number) =>
      h.toString("utf8", offset, offset + length).replace(/\0.*$/s, "");
    const size = parseInt(text(124, 12).trim() || "0", 8);
    const prefix = text(345, 155);
    const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
    const type = text(156, 1) || "0";
    let left = size;
    let consumed = false;
    const read = async function* () {
      consumed = true;
      while (left > 0) {
        const chunk = await some(left);
        if (!chunk) throw new Error(`the archive ends inside ${name}`);
        left -= chunk.length;
        yield chunk;
      }
    };
    if (type === "0") yield { name, size, read };
    if (!consumed || left > 0) for await (const _ of read()) void _;
    const rest = size % BLOCK;
    if (rest && !(await take(BLOCK - rest))) throw new Error(`the archive ends after ${name}`);
  }
}
