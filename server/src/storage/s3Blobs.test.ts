import crypto from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogoUploadAnswer, QuickMessageDTO } from "@atende/contracts";
import { caller, expectError, expectOk, fileForm, TINY_PNG } from "../test/calls.js";
import { buildPlatformOperator, buildTeam, uid } from "../test/factories.js";
import { type S3Fake, startS3 } from "../test/fakes/s3.js";
import { type TestContext, createTestContext, openTestDatabase } from "../test/harness.js";
import { MediaStore, MediaTooLarge, blobStoreFor } from "./media.js";

/**
 * Media in an S3-compatible bucket (a real S3 server on loopback), shared by two instances of one
 * deployment (one database): what one stores, the other serves, with the same headers and the same
 * access rules as from the disk; big files stream both ways (multipart upload, streamed answer).
 */
let s3: S3Fake;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let a: TestContext<MediaStore>;
let b: TestContext<MediaStore>;
const onA = caller(() => a);
const onB = caller(() => b);

beforeAll(async () => {
  s3 = await startS3();
  database = await openTestDatabase();
  const media = (config: TestContext["deps"]["config"]) =>
    new MediaStore(blobStoreFor(config), config.MEDIA_MAX_BYTES);
  a = await createTestContext(s3.env, { database, media });
  b = await createTestContext(s3.env, { database, media });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.drop();
  await s3?.close();
});

const keysIn = async (prefix: string) => {
  const keys = [];
  for await (const { key } of a.deps.media.blobs.list(prefix)) keys.push(key);
  return keys.sort();
};

/** A PDF of `size` bytes (its header makes it one; the rest is noise). */
const bigPdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.7\n"), crypto.randomBytes(size - 9)]);

describe("media in an S3 bucket shared by two instances", () => {
  it("a file stored through one instance is served by the other, with the same headers and access rules", async () => {
    const team = await buildTeam(a);
    const other = await buildTeam(a);
    const quick = expectOk<QuickMessageDTO>(
      await onA("POST", "/quick-messages", team.agentLogin, { shortcode: `oi${uid()}`, message: "Olá" }),
      201,
    );
    const form = fileForm(TINY_PNG, "logo.png", "image/png");
    const withFile = expectOk<QuickMessageDTO>(
      await onA(
        "POST",
        `/quick-messages/${quick.id}/media-upload`,
        team.agentLogin,
        form.payload,
        form.headers,
      ),
    );
    expect(await keysIn(`${team.company.id}/`)).toEqual([withFile.mediaPath]);

    const served = await onB("GET", withFile.mediaUrl!, team.adminLogin);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(TINY_PNG)).toBe(true);
    expect(served.headers).toMatchObject({
      "content-type": "image/png",
      "content-length": String(TINY_PNG.length),
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, max-age=86400",
    });
    // Another company's admin: as if it did not exist, on either instance.
    expectError(await onB("GET", withFile.mediaUrl!, other.adminLogin), 404, "ERR_NOT_FOUND");
    expectError(await onA("GET", withFile.mediaUrl!, other.adminLogin), 404, "ERR_NOT_FOUND");
  });

  it("a big file streams into the bucket in parts and back out; one over the limit leaves nothing", async () => {
    const team = await buildTeam(a);
    // Over the 5 MiB part size: a multipart upload.
    const data = bigPdf(7 * 1024 * 1024 + 123);
    // Declared as an image: the type comes from the bytes, as on disk.
    const stored = await a.deps.media.saveStream(team.company.id, Readable.from([data]), "image/png");
    expect(stored).toMatchObject({ mimetype: "application/pdf", size: data.length });
    expect(stored.path).toMatch(new RegExp(`^${team.company.id}/[0-9a-f-]{36}\\.pdf$`));
    const served = await onB("GET", `/media/${stored.path}`, team.adminLogin);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("application/pdf");
    expect(served.headers["content-length"]).toBe(String(data.length));
    expect(crypto.createHash("sha256").update(served.rawPayload).digest("hex")).toBe(
      crypto.createHash("sha256").update(data).digest("hex"),
    );

    await expect(
      b.deps.media.saveStream(team.company.id, Readable.from([data.subarray(0, 4096)]), "image/png", 4000),
    ).rejects.toBeInstanceOf(MediaTooLarge);
    expect(await keysIn(`${team.company.id}/`)).toEqual([stored.path]);

    // A company's removal empties its folder of the bucket.
    await b.deps.media.removeCompany(team.company.id);
    expect(await keysIn(`${team.company.id}/`)).toEqual([]);
  });

  it("the platform's logos live in the bucket too: uploaded on one instance, read on the other", async () => {
    const operator = await buildPlatformOperator(a);
    const form = fileForm(TINY_PNG, "login.png", "image/png");
    const answer = expectOk<LogoUploadAnswer>(
      await onA("POST", "/settings/media-upload?ref=login", operator.login, form.payload, form.headers),
    );
    const logo = await b.app.inject({ method: "GET", url: answer.url });
    expect(logo.statusCode).toBe(200);
    expect(logo.rawPayload.equals(TINY_PNG)).toBe(true);
  });
});
