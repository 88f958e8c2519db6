// Sums the JSON reports of vitest and Playwright into one closing line: "tests: N passed, N failed".
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
/** Where the time went: the slowest files of each suite, so a suite that grows shows why. */
const slowest = [];
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  let p = 0;
  let f = 0;
  let s = 0;
  if (typeof report.numPassedTests === "number") {
    p = report.numPassedTests;
    const files = (report.testResults ?? [])
      .map((r) => ({ name: path.relative(process.cwd(), r.name), ms: (r.endTime ?? 0) - (r.startTime ?? 0) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 6);
    slowest.push(
      `  ${path.basename(file, ".json")}: ${files.map((f) => `${f.name} ${seconds(f.ms)}`).join(", ")}`,
    );
    f = report.numFailedTests;
    s = report.numPendingTests + (report.numTodoTests ?? 0);
  } else if (report.stats) {
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
    s = report.stats.skipped;
    const specs = (report.suites ?? [])
      .map((suite) => ({ name: suite.file ?? suite.title, ms: specMs(suite) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 6);
    slowest.push(
      `  ${path.basename(file, ".json")}: ${specs.map((f) => `${f.name} ${seconds(f.ms)}`).join(", ")}`,
    );
  }
  lines.push(
    `  ${path.basename(file, ".json").padEnd(16)} ${p} passed, ${f} failed${s ? `, ${s} skipped` : ""}`,
  );
  passed += p;
  failed += f;
  skipped += s;
}
console.log("\nslowest files:\n" + slowest.join("\n"));
console.log("\n" + lines.join("\n"));
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
