import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/** One "§ " line per finished test, which scripts/test.mjs echoes to the console as progress. */
export default class ProgressReporter implements Reporter {
  private done = 0;
  private total = 0;

  onBegin(_config: unknown, suite: { allTests(): TestCase[] }) {
    this.total = suite.allTests().length;
  }

  onTestEnd(test: TestCase, result: TestResult) {
    this.done++;
    const mark = result.status === "passed" ? "✓" : result.status === "skipped" ? "-" : "✘";
    const file = test.location.file.split("/").pop();
    console.log(
      `§ ${this.done}/${this.total} ${mark} ${file} › ${test.title} (${(result.duration / 1000).toFixed(1)} s)`,
    );
  }

  onEnd(result: FullResult) {
    console.log(`§ ${result.status}`);
  }
}
