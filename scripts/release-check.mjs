// The release build as an operator runs it, in a fresh folder: the files `scripts/build.mjs --out`
// writes, `npm ci --omit=dev -w server` (no tsx, no Vite, no TypeScript), then
//   1. `node server/dist/main.js` in production on a new database (a fresh PostgreSQL database and
//      Redis when TEST_DATABASE_URL or a local server answers, as a deployment runs; else the
//      embedded one): /readyz answers 200, the web app is served, the start says how to create the
//      super user (no demo users), and a SIGTERM stops it cleanly (exit 0);
//   2. `npm run start:release` on the same data: ready again, and a SIGTERM sent to npm (what a
//      process manager sends to the command it started) stops the server too;
//   3. `npm run backup` (the operator's commands, from server/dist/cli.js) writes its archive.
// Prints "release: N passed, N failed" and exits non-zero on any failure. Builds first when
// server/dist is missing; `--build` always does. About 30 s, most of it `npm ci` from npm's cache.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { redisAnswers } from "./services.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const started = performance.now();
const seconds = (t) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
const results = [];
function check(name, ok, detail = "") {
  results.push(ok);
  console.log(`${ok ? "✔" : "✘"} ${name}${detail ? `: ${detail}` : ""}`);
  return ok;
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "atende-release-"));
const children = new Set();
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  fs.rmSync(folder, { recursive: true, force: true });
});

function sh(command, args, cwd) {
  const done = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (done.status !== 0) {
    console.log(done.stdout, done.stderr);
    throw new Error(`${command} ${args.join(" ")} exited ${done.status}`);
  }
}

/** A fresh PostgreSQL database for the release (dropped at exit), or null without a server. */
function freshPostgres() {
  const url =
    process.env.TEST_DATABASE_URL ||
    (spawnSync("pg_isready", ["-q", "-h", "127.0.0.1", "-p", "5432"]).status === 0
      ? "postgres://postgres@127.0.0.1:5432/test"
      : null);
  if (!url) return null;
  const name = `atende_release_${process.pid}`;
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const psql = (sql) => spawnSync("psql", ["-q", "-v", "ON_ERROR_STOP=1", admin.toString(), "-c", sql]);
  if (psql(`CREATE DATABASE ${name}`).status !== 0) return null;
  process.on("exit", () => psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const database = new URL(url);
  database.pathname = `/${name}`;
  return database.toString();
}

const databaseUrl = freshPostgres();
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const services = {
  ...(databaseUrl
    ? {
        DATABASE_URL: databaseUrl,
        JWT_SECRET: "release-check-jwt-secret-".padEnd(48, "x"),
        SECRETS_KEY: "release-check-secrets-key-".padEnd(48, "x"),
      }
    : {}),
  ...((await redisAnswers(redisUrl)) ? { REDIS_URL: redisUrl } : {}),
};

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `command` in the release folder; resolves once /readyz answers 200 (or the process ends). */
async function start(command, args, port) {
  const child = spawn(command, args, {
    cwd: folder,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? os.homedir(),
      NODE_ENV: "production",
      DATA_DIR: path.join(folder, "data"),
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "info",
      ...services,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let output = "";
  child.stdout.on("data", (b) => (output += b));
  child.stderr.on("data", (b) => (output += b));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const until = Date.now() + 60_000;
  let ready = false;
  while (!ready && child.exitCode === null && Date.now() < until) {
    ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (!ready) await new Promise((r) => setTimeout(r, 200));
  }
  return { child, exited, ready, output: () => output };
}

/** Sends SIGTERM and waits for the exit (10 s at most). */
async function stop(server) {
  server.child.kill("SIGTERM");
  const timeout = new Promise((resolve) => setTimeout(() => resolve(null), 10_000));
  return Promise.race([server.exited, timeout]);
}

try {
  const built = ["server/dist/main.js", "web/dist/index.html"].every((f) =>
    fs.existsSync(path.join(root, f)),
  );
  if (process.argv.includes("--build") || !built) sh("node", ["scripts/build.mjs"], root);
  sh("node", ["scripts/build.mjs", "--no-web", "--no-server", "--out", folder], root);
  let t = performance.now();
  sh("npm", ["ci", "--omit=dev", "-w", "server", "--no-audit", "--no-fund", "--prefer-offline"], folder);
  check("npm ci --omit=dev -w server", true, seconds(t));
  const missing = ["tsx", "vite", "typescript", "vitest"].filter((p) =>
    fs.existsSync(path.join(folder, "node_modules", p)),
  );
  check("no dev tool installed", missing.length === 0, missing.join(", "));

  console.log(
    `database: ${databaseUrl ? "a fresh PostgreSQL database" : "embedded"}; Redis: ${services.REDIS_URL ? "yes" : "no"}`,
  );
  const port = await freePort();
  t = performance.now();
  const first = await start("node", ["server/dist/main.js"], port);
  check(
    "node server/dist/main.js: /readyz 200",
    first.ready,
    seconds(t) + (first.ready ? "" : `\n${first.output()}`),
  );
  const page = await fetch(`http://127.0.0.1:${port}/login`, { headers: { accept: "text/html" } }).then(
    async (r) => ({ status: r.status, body: await r.text() }),
    () => ({ status: 0, body: "" }),
  );
  check("the web app is served", page.status === 200 && page.body.includes('<div id="root">'));
  // main.js loads the protobufjs patch before the server's bundle (scripts/build.mjs).
  check(
    "protobufjs patched before WhatsApp's protocol loaded",
    !/oneof getters were replaced after/.test(first.output()),
  );
  check(
    "no demo users; the start says how to create the super user",
    /No super user yet/.test(first.output()) && !/Super123/.test(first.output()),
  );
  const firstExit = await stop(first);
  check("SIGTERM to node: clean exit", firstExit?.code === 0, JSON.stringify(firstExit));

  t = performance.now();
  const second = await start("npm", ["run", "start:release"], port);
  check(
    "npm run start:release: /readyz 200",
    second.ready,
    seconds(t) + (second.ready ? "" : `\n${second.output()}`),
  );
  const secondExit = await stop(second);
  const down = await fetch(`http://127.0.0.1:${port}/livez`).then(
    () => false,
    () => true,
  );
  check(
    "SIGTERM to npm: the server stops too",
    secondExit !== null && down && /shutting down/.test(second.output()),
    JSON.stringify(secondExit),
  );

  // The operator's commands run from the pruned install too (server/dist/cli.js).
  t = performance.now();
  const archive = path.join(folder, "backup.tar.gz");
  const backup = spawnSync("npm", ["run", "backup", "--", archive], {
    cwd: folder,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? os.homedir(),
      DATA_DIR: path.join(folder, "data"),
      ...services,
    },
  });
  check(
    "npm run backup",
    backup.status === 0 && fs.existsSync(archive),
    seconds(t) + (backup.status === 0 ? "" : `\n${backup.stdout}${backup.stderr}`),
  );
} catch (err) {
  check("release check", false, err instanceof Error ? err.message : String(err));
}
const failed = results.filter((ok) => !ok).length;
console.log(`release check in ${seconds(started)}`);
console.log(`release: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
