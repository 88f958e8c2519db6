// Every test, on both cores: the server suite on embedded PGlite and on PostgreSQL side by side, then
// the e2e specs in Chromium (in E2E_SHARDS groups side by side, each with its own app; two on two cores). Each part writes its whole output to a log; the
// console gets one progress line per finished test file (or e2e test), the log of any part that
// failed, the phase times, the slowest files of each suite, and one closing line
// "tests: N passed, N failed".
//
// TEST_DATABASE_URL (or a server answering on 127.0.0.1:5432) adds the PostgreSQL pass; without one
// it is skipped with a printed line. Knobs: SERVER_WORKERS (vitest workers per pass), E2E_SHARDS,
// TEST_ONLY=server|e2e.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { redisAnswers } from "./services.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const results = fs.mkdtempSync(path.join(os.tmpdir(), "atende-tests-"));
const cores = os.availableParallelism();
const serverWorkers = Number(process.env.SERVER_WORKERS ?? Math.max(2, cores));
// Two e2e groups on two cores or more, each with its own app and browser. One group left a core a
// quarter idle (the browser, the app and Playwright wait on one another: 75 % busy in a whole run);
// two kept both at 95 % and took 16.9 min against 19.0. An earlier try of two groups ran specs 3-5x
// slower: every person a test opened stayed open to the end of the run then (helpers.ts now closes
// them), each page still drawing the demo company's events.
const e2eShards = Number(process.env.E2E_SHARDS ?? Math.min(2, cores));
const only = process.env.TEST_ONLY ?? "";
const started = performance.now();
const since = (t) => `${((performance.now() - t) / 1000).toFixed(0)} s`;

/** Phase name → { seconds, ok }, in the order they end. */
const phases = new Map();

/**
 * Runs one part of the suite: its output goes whole to `<results>/<name>.log`; lines the part's
 * progress reporter marks with "§ " go to the console too.
 */
function run(name, command, args, { cwd = root, env = {} } = {}) {
  const log = fs.createWriteStream(path.join(results, `${name}.log`));
  const t0 = performance.now();
  console.log(`▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, FORCE_COLOR: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let pending = "";
    child.stdout.on("data", (chunk) => {
      log.write(chunk);
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("§ ")) console.log(`  ${name} ${line.slice(2)}`);
    });
    child.stderr.on("data", (chunk) => log.write(chunk));
    child.on("close", (code) => {
      log.end();
      const ok = code === 0;
      phases.set(name, { seconds: (performance.now() - t0) / 1000, ok });
      console.log(`${ok ? "✔" : "✘"} ${name} in ${since(t0)}${ok ? "" : ` (exit ${code})`}`);
      resolve(ok);
    });
  });
}

function postgresUrl() {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  const ready = spawnSync("pg_isready", ["-q", "-h", "127.0.0.1", "-p", "5432"]);
  return ready.status === 0 ? "postgres://postgres@127.0.0.1:5432/test" : null;
}

function serverPass(name, databaseUrl, { cpus = null, workers = serverWorkers } = {}) {
  const env = { WALL_TIME_OUTPUT: path.join(results, `${name}.files.json`), WALL_TIME_TAG: name };
  if (databaseUrl) env.TEST_DATABASE_URL = databaseUrl;
  const args = [
    "vitest",
    "run",
    `--maxWorkers=${workers}`,
    "--reporter=default",
    "--reporter=./src/test/wallTimeReporter.ts",
    "--reporter=json",
    `--outputFile.json=${path.join(results, `${name}.json`)}`,
  ];
  // PGlite's pass must not see a PostgreSQL URL from the environment.
  const childEnv = databaseUrl ? env : { ...env, TEST_DATABASE_URL: "" };
  const cwd = path.join(root, "server");
  // Pinned to some cores (beside the e2e specs), its workers inherit the pinning.
  if (cpus) return run(name, "taskset", ["-c", cpus, "npx", ...args], { cwd, env: childEnv });
  return run(name, "npx", args, { cwd, env: childEnv });
}

/**
 * Splits the spec files into `n` groups of about equal time (longest first, each to the lightest
 * group), from the times of a run kept in e2e/spec-times.json; a spec not listed there counts as the
 * median (30 s while fewer than five are listed).
 */
function e2eGroups(n) {
  const specs = fs
    .readdirSync(path.join(root, "e2e/specs"))
    .filter((f) => f.endsWith(".spec.ts"))
    .sort();
  const timesFile = path.join(root, "e2e/spec-times.json");
  const known = fs.existsSync(timesFile) ? JSON.parse(fs.readFileSync(timesFile, "utf8")) : {};
  const values = Object.values(known).sort((a, b) => a - b);
  const median = values.length >= 5 ? values[Math.floor(values.length / 2)] : 30;
  const groups = Array.from({ length: n }, () => ({ seconds: 0, specs: [] }));
  for (const spec of specs.sort((a, b) => (known[b] ?? median) - (known[a] ?? median))) {
    const lightest = groups.reduce((min, g) => (g.seconds < min.seconds ? g : min));
    lightest.specs.push(spec);
    lightest.seconds += known[spec] ?? median;
  }
  return groups.filter((g) => g.specs.length > 0);
}

/**
 * A new, empty PostgreSQL database named `name` on the server of `url`, for an e2e app: its queries
 * then run in PostgreSQL's processes, not on the app's one thread as PGlite's do.
 */
function freshDatabase(url, name) {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  for (const sql of [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `CREATE DATABASE ${name}`]) {
    const done = spawnSync("psql", ["-q", "-v", "ON_ERROR_STOP=1", admin.toString(), "-c", sql], {
      encoding: "utf8",
    });
    if (done.status !== 0) throw new Error(`psql: ${sql}: ${done.stderr || done.error}`);
  }
  const database = new URL(url);
  database.pathname = `/${name}`;
  return database.toString();
}

/**
 * What the e2e specs need before they start: the browser, the release build (web and server, a few
 * seconds), then the release check: its output started from `npm ci --omit=dev` in a fresh folder
 * (scripts/release-check.mjs, 20-30 s, mostly waiting on npm and the disk); the specs use the web
 * app it built. Started with the server passes, so its wait hides behind them.
 */
async function e2ePrepare() {
  const prepared =
    (await run("chromium", "bash", ["scripts/ensure-chromium.sh"])) &&
    (await run("release build", "node", ["scripts/build.mjs"]));
  if (!prepared) return { prepared, released: false };
  return { prepared, released: await run("release check", "node", ["scripts/release-check.mjs"]) };
}

async function e2e(preparation) {
  const { prepared, released } = await preparation;
  if (!prepared) return false;
  const basePort = Number(process.env.E2E_PORT ?? 8190);
  const groups = e2eGroups(e2eShards);
  const outcomes = await Promise.all(
    groups.map((group, i) => {
      const name = `e2e-${i + 1}`;
      const port = basePort + 10 * i;
      return run(name, "npx", ["playwright", "test", ...group.specs.map((s) => `specs/${s}`)], {
        cwd: path.join(root, "e2e"),
        env: {
          ...(e2ePostgres ? { E2E_DATABASE_URL: freshDatabase(pgUrl, `atende_e2e_${port}`) } : {}),
          // Each group has its own app, data folder and fakes: ports 10 apart.
          E2E_PORT: String(port),
          E2E_OUTPUT: `test-results/${name}`,
          E2E_TAG: name,
          PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(results, `${name}.json`),
        },
      });
    }),
  );
  return released && outcomes.every(Boolean);
}

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
if (only !== "e2e" && !(await redisAnswers(redisUrl))) {
  console.error(
    `The server tests need Redis at ${redisUrl} (TEST_REDIS_URL): install and start it, e.g.\n` +
      `  apt-get install -y redis-server && redis-server --daemonize yes --bind 127.0.0.1 --save ""`,
  );
  process.exit(1);
}

const pgUrl = postgresUrl();
// E2E_POSTGRES=1: the e2e app on a fresh PostgreSQL database instead of PGlite. Not the default yet:
// its one run (beside the server passes) failed chat.spec's "delivered" tick, not understood yet.
const e2ePostgres = process.env.E2E_POSTGRES === "1" && pgUrl !== null;
// OVERLAP=1: the e2e specs start at once, beside the server passes pinned to the last core (one
// worker each), so the time a browser spends waiting is the server suite's. Off by default: on two
// cores the specs then ran 1.5-2x slower (a11y 542 s, campaigns 57 s against 39 s alone) and the
// server passes needed about 21 min on their core (8 side by side alone). Otherwise the
// two server passes first, side by side on every core, then the e2e specs.
const overlap = process.env.OVERLAP === "1" && only === "" && cores > 1;
const serverOptions = overlap ? { cpus: String(cores - 1), workers: 1 } : {};
const serverParts = [];
const e2eReady = only === "server" ? null : e2ePrepare();
const e2eFirst = overlap ? e2e(e2eReady) : null;
if (only !== "e2e") {
  serverParts.push(serverPass("server-pglite", null, serverOptions));
  if (pgUrl) serverParts.push(serverPass("server-postgres", pgUrl, serverOptions));
  else console.log("server-postgres: skipped, no TEST_DATABASE_URL and no server on 127.0.0.1:5432");
}
const serverOk = (await Promise.all(serverParts)).every(Boolean);
const ok = (only === "server" || (await (e2eFirst ?? e2e(e2eReady)))) && serverOk;
phases.set("tests in all", { seconds: (performance.now() - started) / 1000, ok });

for (const [name, phase] of phases)
  if (!phase.ok && fs.existsSync(path.join(results, `${name}.log`))) {
    console.log(`\n──── ${name}: the log of the failed part ────`);
    const text = fs.readFileSync(path.join(results, `${name}.log`), "utf8").split("\n");
    console.log(text.slice(-1500).join("\n"));
  }

const summary = spawnSync("node", [path.join(root, "scripts/summarize-tests.mjs"), results], {
  stdio: "inherit",
  env: {
    ...process.env,
    TEST_PHASES: JSON.stringify(Object.fromEntries(phases)),
    // This run's spec times, for e2e/spec-times.json (copy it there when the groups drift apart).
    E2E_TIMES_OUT: path.join(root, "e2e/test-results/spec-times.json"),
  },
});
fs.rmSync(results, { recursive: true, force: true });
process.exit(ok && summary.status === 0 ? 0 : 1);
