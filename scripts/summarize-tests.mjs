// Sums the JSON reports of vitest and Playwright into one closing line: "tests: N passed, N failed",
// after where the time went: each phase's wall time (install, lint and typecheck from .ci/run's
// CI_PHASES file when there is one; the test parts from TEST_PHASES) and the ten slowest files of
// each suite, measured from import to teardown (server/src/test/wallTimeReporter.ts) or, for e2e,
// as the sum of the spec's test times.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
const minutes = (s) => (s >= 90 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(0)} s`);

const phaseLines = [];
const ciPhases = process.env.CI_PHASES;
if (ciPhases && fs.existsSync(ciPhases))
  for (const line of fs.readFileSync(ciPhases, "utf8").trim().split("\n")) {
    const [name, seconds] = line.split("\t");
    if (name && seconds) phaseLines.push(`  ${name.padEnd(18)} ${minutes(Number(seconds))}`);
  }
for (const [name, phase] of Object.entries(JSON.parse(process.env.TEST_PHASES ?? "{}")))
  phaseLines.push(`  ${name.padEnd(18)} ${minutes(phase.seconds)}${phase.ok ? "" : "  FAILED"}`);

let passed = 0;
let failed = 0;
let skipped = 0;
const counts = [];
const slowest = [];
/** e2e spec → seconds, for e2e/spec-times.json (how test.mjs balances its groups). */
const specSeconds = {};
const reports = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".json") && !f.endsWith(".files.json"))
  .sort();
for (const file of reports) {
  const name = path.basename(file, ".json");
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  let p = 0;
  let f = 0;
  let s = 0;
  if (typeof report.numPassedTests === "number") {
    p = report.numPassedTests;
    f = report.numFailedTests;
    s = report.numPendingTests + (report.numTodoTests ?? 0);
    const wallFile = path.join(dir, `${name}.files.json`);
    if (fs.existsSync(wallFile)) {
      const files = JSON.parse(fs.readFileSync(wallFile, "utf8")).files.slice(0, 10);
      slowest.push(
        `  ${name}:\n${files.map((w) => `    ${minutes(w.ms / 1000).padStart(8)}  ${w.file}`).join("\n")}`,
      );
    }
  } else if (report.stats) {
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
    s = report.stats.skipped;
    const specs = (report.suites ?? []).map((suite) => ({
      name: suite.file ?? suite.title,
      ms: specMs(suite),
    }));
    for (const spec of specs) specSeconds[path.basename(spec.name)] = Math.round(spec.ms / 1000);
    specs.sort((a, b) => b.ms - a.ms);
    slowest.push(
      `  ${name}:\n${specs
        .slice(0, 10)
        .map((w) => `    ${minutes(w.ms / 1000).padStart(8)}  ${w.name}`)
        .join("\n")}`,
    );
  }
  counts.push(`  ${name.padEnd(18)} ${p} passed, ${f} failed${s ? `, ${s} skipped` : ""}`);
  passed += p;
  failed += f;
  skipped += s;
}

if (Object.keys(specSeconds).length > 0 && process.env.E2E_TIMES_OUT)
  fs.writeFileSync(process.env.E2E_TIMES_OUT, JSON.stringify(sortedKeys(specSeconds), null, 2) + "\n");

console.log("\nphases (wall time):\n" + phaseLines.join("\n"));
console.log("\nslowest files (import to teardown; e2e: the spec's tests):\n" + slowest.join("\n"));
console.log("\n" + counts.join("\n"));
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
if (passed === 0 || failed > 0) process.exit(1);

/** A Playwright suite's time: every result of every test in it and its nested suites. */
function specMs(suite) {
  let ms = 0;
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests ?? []) for (const result of test.results ?? []) ms += result.duration ?? 0;
  for (const child of suite.suites ?? []) ms += specMs(child);
  return ms;
}

function sortedKeys(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
}
