import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("WA_WEB_VERSION", () => {
  it("is unset by default: the Baileys sessions announce the version bundled with Baileys", () => {
    expect(loadConfig({}).WA_WEB_VERSION).toBeUndefined();
    expect(loadConfig({ WA_WEB_VERSION: "" }).WA_WEB_VERSION).toBeUndefined();
  });

  it("reads a version as WhatsApp writes it into the three numbers Baileys takes", () => {
    expect(loadConfig({ WA_WEB_VERSION: "2.3000.1023223821" }).WA_WEB_VERSION).toStrictEqual([
      2, 3000, 1023223821,
    ]);
    expect(loadConfig({ WA_WEB_VERSION: " 2.3000.1 " }).WA_WEB_VERSION).toStrictEqual([2, 3000, 1]);
  });

  it.each(["2.3000", "2.3000.1023223821.1", "v2.3000.1", "2,3000,1", "2.3000.x", "latest"])(
    "refuses %j at start, naming the variable",
    (value) => {
      expect(() => loadConfig({ WA_WEB_VERSION: value })).toThrow(
        /Invalid configuration: WA_WEB_VERSION: three numbers/,
      );
    },
  );
});

describe("OUTBOUND_ALLOW_PRIVATE", () => {
  it("is empty by default: outbound calls reach public addresses only", () => {
    expect(loadConfig({}).OUTBOUND_ALLOW_PRIVATE).toBe("");
    expect(loadConfig({ NODE_ENV: "production" }).OUTBOUND_ALLOW_PRIVATE).toBe("");
  });

  it("reads a list of addresses, ranges and ports, and takes WEBHOOKS_ALLOW_PRIVATE=true as every address", () => {
    const list = "127.0.0.1:4000, [::1]:4000, 10.0.0.0/8, ::1";
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: list }).OUTBOUND_ALLOW_PRIVATE).toBe(list);
    expect(loadConfig({ WEBHOOKS_ALLOW_PRIVATE: "true" }).OUTBOUND_ALLOW_PRIVATE).toBe("*");
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: "localhost:99999" })).toThrow(
      /Invalid configuration: OUTBOUND_ALLOW_PRIVATE/,
    );
  });

  it.each([
    { OUTBOUND_ALLOW_PRIVATE: "127.0.0.1:4000" },
    { OUTBOUND_ALLOW_PRIVATE: "*" },
    { WEBHOOKS_ALLOW_PRIVATE: "true" },
  ])("is refused at start with NODE_ENV=production: %j", (env) => {
    expect(() => loadConfig({ NODE_ENV: "production", ...env })).toThrow(
      /Invalid configuration: OUTBOUND_ALLOW_PRIVATE .*never allowed with NODE_ENV=production/,
    );
  });
});

describe("MEDIA_STORAGE", () => {
  it("keeps media on this machine's disk by default; s3 takes the bucket, endpoint and path style", () => {
    expect(loadConfig({}).MEDIA_STORAGE).toBe("local");
    const s3 = loadConfig({
      MEDIA_STORAGE: "s3",
      S3_BUCKET: "atende",
      S3_ENDPOINT: "http://minio:9000",
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    expect(s3).toMatchObject({
      S3_BUCKET: "atende",
      S3_ENDPOINT: "http://minio:9000",
      S3_REGION: "us-east-1",
    });
  });

  it.each([
    [{ MEDIA_STORAGE: "s3" }, /MEDIA_STORAGE=s3 needs S3_BUCKET/],
    [{ S3_BUCKET: "atende" }, /MEDIA_STORAGE is local/],
    [{ MEDIA_STORAGE: "s3", S3_BUCKET: "a", S3_ACCESS_KEY_ID: "id" }, /go together/],
    [{ MEDIA_STORAGE: "s3", S3_BUCKET: "a", S3_ENDPOINT: "minio:9000" }, /S3_ENDPOINT: an http/],
    [{ MEDIA_STORAGE: "s3", S3_BUCKET: "a", S3_PREFIX: "atende" }, /S3_PREFIX/],
  ])("refuses a contradictory or malformed setting at start: %j", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
