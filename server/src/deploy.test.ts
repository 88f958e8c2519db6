import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "./config.js";
import { appRoot } from "./paths.js";

/**
 * No Docker engine runs here, so the deployment files are checked as text against the code they
 * configure: compose.yaml's services, environment and volumes against config.ts (every variable
 * known, the required ones set, the whole environment accepted by loadConfig with .env.example's
 * values), the Caddyfile against the services and the media limit, and the Dockerfile against
 * the release build.
 */
const read = (file: string) => fs.readFileSync(path.join(appRoot, file), "utf8");
interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  expose?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  entrypoint?: string[];
}
const compose = parse(read("compose.yaml"), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const dotenv = Object.fromEntries(
  read(".env.example")
    .split("\n")
    .filter((l) => /^\w+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
);
/** Compose's interpolation: ${X}, ${X:-default}, ${X:?error} (an unset X with :? stops compose). */
function interpolate(value: string): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    const set = dotenv[name];
    if (set !== undefined && set !== "") return set;
    if (kind === "-") return rest ?? "";
    if (kind === "?") throw new Error(`compose would stop: ${name} is not in .env.example`);
    return "";
  });
}
const apps = Object.entries(compose.services).filter(([, s]) => s.environment?.DATABASE_URL);

describe("compose.yaml", () => {
  it("runs two app instances of one image beside PostgreSQL, Redis, an S3 store and a proxy", () => {
    expect(apps.map(([name]) => name)).toEqual(["app1", "app2"]);
    for (const [, app] of apps) {
      expect(app.build).toBe(".");
      expect(app.image).toBe(apps[0]![1].image);
      expect(app.ports, "only the proxy is published").toBeUndefined();
    }
    expect(Object.keys(compose.services).sort()).toEqual(
      ["app1", "app2", "caddy", "media-bucket", "minio", "postgres", "redis"].sort(),
    );
    expect(compose.services.caddy!.ports).toEqual(expect.arrayContaining(["80:80", "443:443"]));
  });

  it("sets only variables config.ts reads, every one a deployment of several instances needs, and loadConfig accepts them", () => {
    for (const [name, app] of apps) {
      const env = app.environment!;
      const unknown = Object.keys(env).filter((k) => !CONFIG_VARIABLES.includes(k));
      expect(unknown, `${name}: unknown variables`).toEqual([]);
      for (const required of [
        "NODE_ENV",
        "DATABASE_URL",
        "REDIS_URL",
        "JWT_SECRET",
        "SECRETS_KEY",
        "ADMIN_EMAIL",
        "TRUST_PROXY",
        "PUBLIC_URL",
        "MEDIA_STORAGE",
        "S3_BUCKET",
        "S3_ENDPOINT",
        "METRICS_TOKEN",
      ])
        expect(env[required], `${name}: ${required}`).toBeTruthy();
      const values = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(String(v))]));
      const config = loadConfig(values);
      expect(config).toMatchObject({
        NODE_ENV: "production",
        MEDIA_STORAGE: "s3",
        S3_FORCE_PATH_STYLE: "true",
      });
      expect(config.demo).toBe(false);
      // One proxy in front: the address it connects from is the one believed about the client.
      expect(config.TRUST_PROXY).toBe("1");
      // The services the URLs name exist, and the bucket the app uses is the one created.
      expect(Object.keys(compose.services)).toContain(new URL(config.DATABASE_URL!).hostname);
      expect(Object.keys(compose.services)).toContain(new URL(config.REDIS_URL!).hostname);
      expect(Object.keys(compose.services)).toContain(new URL(config.S3_ENDPOINT!).hostname);
      expect(compose.services["media-bucket"]!.entrypoint!.join(" ")).toContain(`local/${config.S3_BUCKET}`);
      expect(env.S3_ACCESS_KEY_ID).toBe(compose.services.minio!.environment!.MINIO_ROOT_USER);
      expect(new URL(config.DATABASE_URL!).password).toBe(
        interpolate(compose.services.postgres!.environment!.POSTGRES_PASSWORD!),
      );
    }
  });

  it("keeps each instance's DATA_DIR, the database and the media on named volumes", () => {
    for (const [name, app] of apps) {
      const dataDir = app.environment!.DATA_DIR;
      expect(dataDir).toBe("/data");
      const mount = app.volumes?.find((v) => v.endsWith(`:${dataDir}`));
      expect(mount, `${name}: a volume at DATA_DIR`).toBeDefined();
      expect(Object.keys(compose.volumes)).toContain(mount!.split(":")[0]);
    }
    expect(apps[0]![1].volumes).not.toEqual(apps[1]![1].volumes);
    for (const [service, at] of [
      ["postgres", "/var/lib/postgresql/data"],
      ["minio", "/data"],
    ] as const) {
      const mount = compose.services[service]!.volumes!.find((v) => v.endsWith(`:${at}`));
      expect(Object.keys(compose.volumes)).toContain(mount!.split(":")[0]);
    }
  });
});

describe("deploy/Caddyfile", () => {
  const caddy = read("deploy/Caddyfile");
  it("sends to every app instance, checks /readyz, and takes uploads up to the media limit", () => {
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddy)![1]!.trim().split(/\s+/);
    expect(upstreams.sort()).toEqual(apps.map(([name, app]) => `${name}:${app.environment!.PORT}`).sort());
    expect(caddy).toMatch(/health_uri \/readyz/);
    const max = /max_size (\d+)MB/.exec(caddy);
    expect(Number(max![1]) * 1_000_000).toBeGreaterThan(loadConfig({}).MEDIA_MAX_BYTES);
  });
});

describe("Dockerfile", () => {
  const docker = read("Dockerfile");
  it("builds with the release script, runs node on it as a non-root user, probes /livez, keeps DATA_DIR on a volume", () => {
    expect(docker).toMatch(/RUN node scripts\/build\.mjs --out \/release/);
    expect(docker).toMatch(/npm ci --omit=dev -w server/);
    expect(docker).toMatch(/ARG NODE_IMAGE=node:(22|24)-/);
    expect(docker).toMatch(/^USER node$/m);
    expect(docker).toMatch(/HEALTHCHECK[\s\S]*\/livez/);
    expect(docker).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(docker).toMatch(/DATA_DIR=\/data/);
    expect(docker).toMatch(/^CMD \["node", "server\/dist\/main\.js"\]$/m);
  });
});
