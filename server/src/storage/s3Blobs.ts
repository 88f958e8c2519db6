import crypto from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { type BlobStore, checkKey } from "./blobs.js";

export interface S3Settings {
  bucket: string;
  /** An S3-compatible server's URL (MinIO, Garage, R2, Spaces...); unset: AWS itself, by region. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's own chain (AWS_* variables, an instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Bucket in the path (http://host/bucket/key) rather than in the host name: most self-hosted servers need it. */
  forcePathStyle: boolean;
  /** Keys under this prefix ("atende/"), for a bucket shared with other data. */
  prefix: string;
}

/** 404s of S3 and of the compatible servers, whichever name they give it. */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === "NoSuchKey" ||
    e?.name === "NotFound" ||
    e?.Code === "NoSuchKey" ||
    e?.$metadata?.httpStatusCode === 404
  );
}

/**
 * Blobs in an S3-compatible bucket. Uploads stream through `Upload` (multipart past 5 MiB, at most
 * `queueSize` parts of 5 MiB in memory at once); downloads hand out the response body as a stream.
 */
export class S3Blobs implements BlobStore {
  readonly kind = "s3";
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(readonly settings: S3Settings) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint || undefined,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: many compatible servers refuse the newer
      // streaming checksum trailers the SDK adds by default.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  get location() {
    return `s3://${this.bucket}/${this.prefix}`;
  }

  private key(key: string) {
    return this.prefix + checkKey(key);
  }

  /** Whether the bucket answers (a start refuses a bucket that does not exist or cannot be read). */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(key: string, data: Buffer) {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: data }));
  }

  async putStream(key: string, source: Readable) {
    let size = 0;
    source.on("data", (chunk: Buffer) => (size += chunk.length));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.key(key), Body: source },
      queueSize: 2,
      leavePartsOnError: false,
    });
    // A source that fails midway: the upload is aborted (its parts dropped) and nothing is kept.
    const failed = new Promise<never>((_, reject) => source.once("error", reject));
    failed.catch(() => undefined);
    try {
      await Promise.race([upload.done(), failed]);
    } catch (err) {
      await upload.abort().catch(() => undefined);
      await this.remove(key).catch(() => undefined);
      throw err;
    }
    return size;
  }

  async putFile(key: string, file: string) {
    try {
      await this.putStream(key, createReadStream(file));
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  async scratchFile() {
    return path.join(os.tmpdir(), `atende-media-${crypto.randomUUID()}.part`);
  }

  async get(key: string) {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      if (!out.Body) return null;
      return { stream: out.Body as Readable, size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async exists(key: string) {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async remove(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  async removePrefix(prefix: string) {
    if (!/^[\w-]+\/$/.test(prefix)) throw new Error(`bad media prefix ${prefix}`);
    let batch: string[] = [];
    const flush = async () => {
      if (!batch.length) return;
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      batch = [];
    };
    for await (const { key } of this.list(prefix)) {
      batch.push(this.prefix + key);
      if (batch.length === 1000) await flush();
    }
    await flush();
  }

  async *list(prefix = "") {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix + prefix,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? [])
        if (o.Key) yield { key: o.Key.slice(this.prefix.length), size: o.Size ?? 0 };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async withLocalFile<T>(key: string, use: (file: string) => Promise<T>) {
    const found = await this.get(key);
    if (!found) return null;
    const file = await this.scratchFile();
    try {
      await pipeline(found.stream, createWriteStream(file, { flags: "wx" }));
      return await use(file);
    } finally {
      await fs.rm(file, { force: true });
    }
  }
}
