import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import type { Config } from "../../config.js";

/**
 * A real S3-compatible server on loopback (s3rver, the @20minutes fork that runs on Node 20+): it
 * speaks S3's REST API with Signature V4, multipart uploads included, keeping objects in a scratch
 * folder. Not a stand-in of our code: the app talks to it through @aws-sdk/client-s3 as it would to
 * MinIO or AWS.
 */
export interface S3Fake {
  endpoint: string;
  bucket: string;
  /** The variables that point the app at this server's bucket. */
  env: Partial<Config>;
  close(): Promise<void>;
}

interface KoaContext {
  path: string;
  req: { headers: Record<string, string | undefined> };
}
interface S3rverServer {
  middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;
interface CanonicalRequest {
  uri: string;
  headers: Record<string, string | undefined>;
}

const RAW_PATH = "x-fake-raw-path";
let patched = false;
/**
 * s3rver builds the canonical URI of a bucket-level request (ListObjectsV2, DeleteObjects:
 * "/bucket/?list-type=2") without its trailing slash, where S3 and the SDK sign "/bucket/", and so
 * refuses every such request as SignatureDoesNotMatch. Signatures are still checked: the URI it
 * signs is the one the request really had.
 */
function fixBucketLevelSignatures(require: NodeJS.Require) {
  if (patched) return;
  patched = true;
  const v4 = require("@20minutes/s3rver/lib/signature/v4.js") as {
    getStringToSign(canonical: CanonicalRequest, signature: unknown): string;
  };
  const original = v4.getStringToSign;
  v4.getStringToSign = (canonical, signature) => {
    const raw = canonical.headers[RAW_PATH];
    const uri = raw === `${canonical.uri}/` ? raw : canonical.uri;
    return original({ ...canonical, uri }, signature);
  };
}

export async function startS3(bucket = "atende-media"): Promise<S3Fake> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "atende-s3-"));
  const require = createRequire(import.meta.url);
  fixBucketLevelSignatures(require);
  const S3rver = require("@20minutes/s3rver") as S3rverClass;
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  // Notes the path as it came (headers the request did not sign are not part of any signature).
  server.middleware.unshift((ctx, next) => {
    ctx.req.headers[RAW_PATH] = ctx.path;
    return next();
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      MEDIA_STORAGE: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      // s3rver's built-in account.
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      S3_PREFIX: "",
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
