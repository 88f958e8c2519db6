import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 8190);
const dataDir = path.join(os.tmpdir(), `atende-e2e-${port}`);
/** Where the billing spec starts its fake Asaas (specs/fakeAsaas.ts); the server is pointed at it. */
const fakeAsaasPort = port + 1000;
/** Where the Cloud API spec starts its fake Graph API (server/src/test/fakes/graph.ts). */
const fakeGraphPort = port + 1100;
/** Where the AI help spec starts its fake OpenAI-compatible API (server/src/test/fakes/ai.ts). */
const fakeOpenAiPort = port + 1200;
/**
 * The app's database: a PostgreSQL database when E2E_DATABASE_URL names one (scripts/test.mjs makes
 * a fresh one with E2E_POSTGRES=1), else the embedded PGlite in dataDir. The specs log in as the
 * demo users, which a PostgreSQL deployment gets only when SEED_DEMO=true asks for them.
 */
const database = process.env.E2E_DATABASE_URL
  ? `DATABASE_URL=${process.env.E2E_DATABASE_URL} SEED_DEMO=true `
  : "";

/**
 * The browsers. Debian's chromium-headless-shell when installed (scripts/ensure-chromium.sh installs
 * it), the lighter build Playwright itself runs headless: the suite is bound by Chromium's CPU on two
 * cores (a whole run: renderers 1,175 s, browser and GPU processes 531 s, the app 290 s, Playwright
 * 146 s), and the shell draws no window. The full browser for what the shell lacks: installability
 * and a push service (the installable app's spec), and system notifications (the background
 * worker's notice in shell.spec, the new-message notification in tickets-list.spec): those three
 * failed in the shell and pass in the browser. E2E_BROWSER runs every spec in the one named
 * (/usr/bin/chromium: the full browser throughout).
 */
const FULL_BROWSER = "/usr/bin/chromium";
const shellPath =
  process.env.E2E_BROWSER ??
  (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : FULL_BROWSER);
const NEEDS_FULL_BROWSER = /(agents-anywhere|shell|tickets-list)\.spec\.ts$/;
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // A fake microphone that plays a tone, granted without a prompt (the chat's voice notes).
  "--use-fake-ui-for-media-stream",
  "--use-fake-device-for-media-stream",
];

/** Drives Debian's Chromium against the real server with a fresh embedded database and demo data. */
export default defineConfig({
  testDir: "./specs",
  // scripts/test.mjs runs the specs as two groups side by side, each with its own output folder.
  outputDir: process.env.E2E_OUTPUT ?? "./test-results",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Under scripts/test.mjs: a JSON report for its summary and one "§" line per test for its console.
  reporter: process.env.E2E_TAG ? [["list"], ["json"], ["./progressReporter.ts"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    // A green run writes little: the pictures a person looks at are the specs' own shot()s.
    screenshot: "only-on-failure",
    // The app honours "less motion" (web/src/layout/theme.ts): transitions, spinners and skeletons
    // end at once, and the browser draws no frames for them (in a sample of the a11y spec, Chromium's
    // GPU and browser processes took 111 s of CPU, its renderers 78 s).
    reducedMotion: "reduce",
    // A trace records every action's DOM and a screencast in the browser: 15-20 % of the suite's
    // CPU, measured on four specs (232-262 cpu-s without, 265-319 with). CI keeps only the text it
    // printed, so a trace there is never read: it is recorded only outside CI (E2E_TRACE=1 forces it).
    // Turned off once before, two whole runs failed three tests that the slower traced runs passed:
    // each was a race of the test or the page (an event raised before the page's live channel was
    // ready; the a11y walk reading a page the app had not drawn yet), fixed there, not hidden here.
    trace: process.env.CI && process.env.E2E_TRACE !== "1" ? "off" : "retain-on-failure",
  },
  projects: [
    {
      name: "shell",
      testIgnore: NEEDS_FULL_BROWSER,
      use: { launchOptions: { executablePath: shellPath, args: chromiumArgs } },
    },
    {
      name: "browser",
      testMatch: NEEDS_FULL_BROWSER,
      use: { launchOptions: { executablePath: process.env.E2E_BROWSER ?? FULL_BROWSER, args: chromiumArgs } },
    },
  ],
  // Every login of the suite comes from 127.0.0.1: the per-IP login limit (30 per 5 minutes) is for
  // real clients, not for a suite that logs in 60 times; nor is the per-email one (10 per 5 minutes),
  // which the demo admin's 55 logins can pass now that the specs wait less (the server tests cover
  // both limits).
  // Webhook receivers and bot services started by the specs listen on loopback, which the server
  // refuses by default: OUTBOUND_ALLOW_PRIVATE lets them through (a setting production refuses).
  webServer: {
    command: `rm -rf ${dataDir} && cd ../server && ${database}DATA_DIR=${dataDir} PORT=${port} ASAAS_API_URL=http://127.0.0.1:${fakeAsaasPort}/v3 GRAPH_API_URL=http://127.0.0.1:${fakeGraphPort}/v21.0 OPENAI_BASE_URL=http://127.0.0.1:${fakeOpenAiPort}/v1 LOG_LEVEL=warn LOGIN_MAX_PER_IP=1000 LOGIN_MAX_PER_EMAIL=1000 OUTBOUND_ALLOW_PRIVATE=127.0.0.0/8,::1 npx tsx src/main.ts`,
    url: `http://localhost:${port}/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // The app's warnings and errors (LOG_LEVEL=warn) go into the run's log, which scripts/test.mjs
    // prints only when e2e fails: a failure then shows what the server said (a session lease lost,
    // a job failing), where before it said nothing.
    stdout: "pipe",
    stderr: "pipe",
  },
});
