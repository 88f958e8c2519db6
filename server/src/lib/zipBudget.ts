import zlib from "node:zlib";

/**
 * Whether a zip (an .xlsx) unpacks into at most `maxBytes`: walks the zip's central directory and
 * inflates every entry for real, stopping as soon as the total passes the budget (the sizes an
 * archive declares may lie). Only stored and deflated entries are accepted; anything that does not
 * add up answers false. A small zip must not expand into gigabytes (a zip bomb) in a reader.
 */
export function zipFitsInMemory(data: Buffer, maxBytes: number): boolean {
  const end = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]), data.length - 22);
  if (end < 0 || end < data.length - 65_557) return false;
  const entries = data.readUInt16LE(end + 10);
  let at = data.readUInt32LE(end + 16);
  let total = 0;
  try {
    for (let i = 0; i < entries; i++) {
      if (data.readUInt32LE(at) !== 0x02014b50) return false;
      const method = data.readUInt16LE(at + 10);
      const packed = data.readUInt32LE(at + 20);
      const local = data.readUInt32LE(at + 42);
      if (data.readUInt32LE(local) !== 0x04034b50) return false;
      const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
      const body = data.subarray(start, start + packed);
      if (method === 0) total += body.length;
      else if (method === 8)
        total += zlib.inflateRawSync(body, { maxOutputLength: maxBytes - total + 1 }).length;
      else return false;
      if (total > maxBytes) return false;
      at += 46 + data.readUInt16LE(at + 28) + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    }
  } catch {
    // A header past the end of the buffer, a broken deflate stream, or more than the budget.
    return false;
  }
  return true;
}
