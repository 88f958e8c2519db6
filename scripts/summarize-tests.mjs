// Sums the JSON reports of vitest and Playwright into one closing line: "tests: N passed, N failed".
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
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
    f = report.numFailedTests;
    s = report.numPendingTests + (report.numTodoTests ?? 0);
  } else if (report.stats) {
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
    s = report.stats.skipped;
  }
  lines.push(
    `  ${path.basename(file, ".json").padEnd(16)} ${p} passed, ${f} failed${s ? `, ${s} skipped` : ""}`,
  );
  passed += p;
  failed += f;
  skipped += s;
}
console.log("\n" + lines.join("\n"));
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
if (passed === 0 || failed > 0) process.exit(1);
