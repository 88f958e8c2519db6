import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule, TestSpecification } from "vitest/node";

/**
 * Writes each test file's wall time, from the moment a worker takes it (before its imports and
 * set-up) to the end of its teardown, to the JSON file named by WALL_TIME_OUTPUT. Vitest's own
 * report measures from a file's first test to its last, so a file whose cost is its set-up (an app
 * built in beforeAll, a database cloned) looked cheap there.
 */
export default class WallTimeReporter implements Reporter {
  private readonly queuedAt = new Map<string, number>();
  private readonly files: { file: string; ms: number; tests: number }[] = [];
  private total = 0;

  onTestRunStart(specifications: readonly TestSpecification[]) {
    this.total = specifications.length;
  }

  onTestModuleQueued(module: TestModule) {
    this.queuedAt.set(module.moduleId, performance.now());
  }

  onTestModuleEnd(module: TestModule) {
    const started = this.queuedAt.get(module.moduleId);
    const d = module.diagnostic();
    // The queued mark is the truth; the diagnostic's sum is the fallback should a file end unqueued.
    const ms =
      started === undefined
        ? d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration
        : performance.now() - started;
    const file = path.relative(process.cwd(), module.moduleId);
    this.files.push({ file, ms: Math.round(ms), tests: [...module.children.allTests()].length });
    if (process.env.WALL_TIME_TAG) {
      const mark = module.ok() ? "✓" : "✘";
      console.log(`§ ${this.files.length}/${this.total} ${mark} ${file} (${(ms / 1000).toFixed(1)} s)`);
    }
  }

  onTestRunEnd() {
    const out = process.env.WALL_TIME_OUTPUT;
    if (!out) return;
    fs.writeFileSync(out, JSON.stringify({ files: this.files.sort((a, b) => b.ms - a.ms) }, null, 1));
  }
}
