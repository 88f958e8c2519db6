/**
 * bench/compare (issue 40, item 5): every benchmark on a git ref against the working tree, in one
 * run on one machine. The ref is extracted (`git archive`) into a scratch folder under the system's
 * temporary directory and installed there (`npm ci`), once per commit: a second run reuses it. Then
 * each benchmark runs N times on each tree, alternating in ABBA order (ref, working tree, working tree,
 * ref, ref, ...: a host that drifts within the hour weighs on both trees alike), each time with
 * that tree's own script (`npm run bench:<name> -w bench`) and the same environment, so the BENCH_*
 * settings apply to both. The figures are read from the text each run prints (compare/figures.ts)
 * and printed per benchmark: the median of each tree, the change, and every run. A change of more
 * than 10 % in the bad direction is flagged. Like the benchmarks, it never fails on a figure: it
 * exits non-zero only when a run failed (or on bad arguments).
 *
 *   npm run bench:compare -- <git ref> [--only inbound,tickets] [--runs N] [--markdown] [--verbose]
 *
 * Settings: BENCH_COMPARE_RUNS (3; --runs wins), BENCH_COMPARE_DIR (the scratch folders and the
 * runs' logs; <tmpdir>/atende-bench-compare), every BENCH_* setting of the benchmarks themselves.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BENCHMARKS, type Figure, type Goal } from "./compare/figures.js";
import { printColumns } from "./lib/stats.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const CACHE = process.env.BENCH_COMPARE_DIR || path.join(os.tmpdir(), "atende-bench-compare");
/** A change larger than this in the bad direction is flagged. */
const FLAG = 0.1;
const started = Date.now();

function usage(problem?: string): never {
  if (problem) console.error(`bench/compare: ${problem}\n`);
  console.error(
    "usage: npm run bench:compare -- <git ref> [--only name,name] [--runs N] [--markdown] [--verbose]\n" +
      `  benchmarks: ${Object.keys(BENCHMARKS).join(", ")} (all by default)\n` +
      "  --runs N     runs of each benchmark on each tree (BENCH_COMPARE_RUNS, default 3)\n" +
      "  --markdown   also print each result as a Markdown table (for bench/README.md)\n" +
      "  --verbose    pass each run's output through, not only to its log",
  );
  process.exit(2);
}

function parseArgs(argv: string[]) {
  let ref = "";
  let only: string[] = Object.keys(BENCHMARKS);
  let runs = Number(process.env.BENCH_COMPARE_RUNS || 3);
  let markdown = false;
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (v === undefined) usage(`${arg} needs a value`);
      return v;
    };
    if (arg === "--only" || arg.startsWith("--only=")) only = value().split(",").filter(Boolean);
    else if (arg === "--runs" || arg.startsWith("--runs=")) runs = Number(value());
    else if (arg === "--markdown") markdown = true;
    else if (arg === "--verbose") verbose = true;
    else if (arg === "--help" || arg === "-h") usage();
    else if (arg.startsWith("-")) usage(`unknown option ${arg}`);
    else if (ref) usage(`one ref only (got ${ref} and ${arg})`);
    else ref = arg;
  }
  if (!ref) usage("which git ref?");
  const unknown = only.filter((n) => !(n in BENCHMARKS));
  if (unknown.length) usage(`unknown benchmark ${unknown.join(", ")}`);
  if (!Number.isInteger(runs) || runs < 1) usage(`runs must be a whole number ≥ 1, got ${runs}`);
  return { ref, only, runs, markdown, verbose };
}

function git(args: string[]): string {
  const r = spawnSync("git", args, { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.trim() || `exit ${r.status}`}`);
  return r.stdout.trim();
}

const elapsed = (msec: number) => {
  const s = Math.round(msec / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
};
const log = (line: string) => console.log(`[${elapsed(Date.now() - started).padStart(6)}] ${line}`);

/** The scripts of a tree's bench/package.json. */
function benchScripts(packageJson: string): Record<string, string> {
  try {
    return (JSON.parse(packageJson) as { scripts?: Record<string, string> }).scripts ?? {};
  } catch {
    return {};
  }
}

/**
 * The environment of every run: ours (the BENCH_* settings included), without what `npm run` of the
 * working tree added (npm_* variables, its node_modules/.bin on PATH), so the ref's tree resolves
 * its own tools.
 */
function runEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.toLowerCase().startsWith("npm_") && k !== "INIT_CWD") env[k] = v;
  env.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter(
      (p) => !(p.startsWith(ROOT + path.sep) && p.includes("node_modules")) && !p.includes("node-gyp-bin"),
    )
    .join(path.delimiter);
  return env;
}

/** Runs a command with its output in `logFile` (and on the terminal when verbose); answers its exit code. */
function run(cmd: string, args: string[], cwd: string, logFile: string, verbose: boolean): Promise<number> {
  return new Promise((resolve) => {
    const out = fs.openSync(logFile, "w");
    const child = spawn(cmd, args, { cwd, env: runEnv(), stdio: ["ignore", "pipe", "pipe"] });
    const write = (chunk: Buffer, to: NodeJS.WriteStream) => {
      fs.writeSync(out, chunk);
      if (verbose) to.write(chunk);
    };
    child.stdout!.on("data", (c: Buffer) => write(c, process.stdout));
    child.stderr!.on("data", (c: Buffer) => write(c, process.stderr));
    child.on("error", (err) => {
      fs.writeSync(out, `\n${String(err)}\n`);
    });
    child.on("close", (code, signal) => {
      fs.closeSync(out);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

const tail = (file: string, lines = 15) =>
  fs
    .readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .slice(-lines)
    .map((l) => `      | ${l}`)
    .join("\n");

/**
 * The ref's tree, installed: <cache>/<commit>, extracted and `npm ci`-ed in a folder of its own and
 * renamed when complete, so an interrupted build is never taken for a finished one.
 */
async function scratchTree(commit: string, short: string, verbose: boolean): Promise<string> {
  const dir = path.join(CACHE, commit);
  if (fs.existsSync(path.join(dir, "node_modules"))) {
    log(`${short}: reusing ${dir}`);
    return dir;
  }
  fs.mkdirSync(CACHE, { recursive: true });
  const partial = fs.mkdtempSync(path.join(CACHE, `${commit}.partial-`));
  try {
    log(`${short}: extracting into ${partial} (git archive)`);
    const archive = `${partial}.tar`;
    try {
      git(["archive", "--format=tar", "-o", archive, commit]);
      const tar = spawnSync("tar", ["-x", "-f", archive, "-C", partial], { encoding: "utf8" });
      if (tar.status !== 0) throw new Error(`tar -x: ${tar.stderr.trim() || `exit ${tar.status}`}`);
    } finally {
      fs.rmSync(archive, { force: true });
    }
    const npmLog = path.join(CACHE, `${commit}.npm-ci.log`);
    log(`${short}: npm ci --no-audit --no-fund (log: ${npmLog})`);
    const t0 = Date.now();
    const ticker = setInterval(
      () => log(`${short}: npm ci still running (${elapsed(Date.now() - t0)})`),
      15_000,
    );
    const code = await run("npm", ["ci", "--no-audit", "--no-fund"], partial, npmLog, verbose).finally(() =>
      clearInterval(ticker),
    );
    if (code !== 0) throw new Error(`npm ci failed (exit ${code}); the end of ${npmLog}:\n${tail(npmLog)}`);
    log(`${short}: installed in ${elapsed(Date.now() - t0)}`);
    try {
      fs.renameSync(partial, dir);
    } catch (err) {
      // Another compare of the same commit finished first: use its tree.
      if (!fs.existsSync(path.join(dir, "node_modules"))) throw err;
      fs.rmSync(partial, { recursive: true, force: true });
    }
    return dir;
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

function median(values: number[]): number {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return Number.NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

const fmt = (v: number) => {
  if (!Number.isFinite(v)) return "–";
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  return v.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
};
const OPS: Record<Goal["op"], string> = { "<=": "≤", ">=": "≥", "<": "<", ">": ">" };
const meets = (g: Goal, v: number) =>
  !Number.isFinite(v)
    ? "–"
    : (g.op === "<=" ? v <= g.value : g.op === ">=" ? v >= g.value : g.op === "<" ? v < g.value : v > g.value)
      ? "MET"
      : "NOT MET";

interface Side {
  values: number[];
  goal?: Goal;
}
interface Row {
  name: string;
  unit: string;
  better: Figure["better"];
  ref: Side;
  work: Side;
}

/** One benchmark's figures, runs in order, each tree's runs kept apart. */
function collect(runs: { tree: "ref" | "work"; figures: Figure[] }[]): Row[] {
  const rows = new Map<string, Row>();
  const ordered = [...runs.filter((r) => r.tree === "work"), ...runs.filter((r) => r.tree === "ref")];
  for (const r of ordered)
    for (const f of r.figures)
      if (!rows.has(f.name))
        rows.set(f.name, {
          name: f.name,
          unit: f.unit,
          better: f.better,
          ref: { values: [] },
          work: { values: [] },
        });
  for (const r of runs) {
    const seen = new Set<string>();
    for (const f of r.figures) {
      const side = rows.get(f.name)![r.tree];
      side.values.push(f.value);
      side.goal ??= f.goal;
      seen.add(f.name);
    }
    for (const [name, row] of rows) if (!seen.has(name)) row[r.tree].values.push(Number.NaN);
  }
  return [...rows.values()];
}

interface Line {
  cells: string[];
  worse: boolean;
}

function lines(rows: Row[]): Line[] {
  return rows.map((r) => {
    const ref = median(r.ref.values);
    const work = median(r.work.values);
    const change =
      ref !== 0 && Number.isFinite(ref) && Number.isFinite(work) ? (work - ref) / Math.abs(ref) : Number.NaN;
    const worse = Number.isFinite(change) && (r.better === "lower" ? change > FLAG : change < -FLAG);
    const goal = r.work.goal ?? r.ref.goal;
    const differs = r.ref.goal && r.work.goal && JSON.stringify(r.ref.goal) !== JSON.stringify(r.work.goal);
    const threshold = (g: Goal) =>
      `${OPS[g.op]} ${g.value}${r.unit === "×" ? "×" : r.unit ? ` ${r.unit}` : ""}`;
    const goalText = goal
      ? `${threshold(goal)}${differs ? ` (ref ${threshold(r.ref.goal!)})` : ""}: ` +
        `${meets(r.ref.goal ?? goal, ref)} → ${meets(goal, work)}`
      : "";
    return {
      worse,
      cells: [
        r.name,
        r.unit,
        goalText,
        fmt(ref),
        fmt(work),
        Number.isFinite(change) ? `${change >= 0 ? "+" : ""}${(change * 100).toFixed(1)} %` : "–",
        worse ? "WORSE" : "",
        r.ref.values.map(fmt).join(", "),
        r.work.values.map(fmt).join(", "),
      ],
    };
  });
}

function printResult(name: string, refLabel: string, runs: number, rows: Row[], markdown: boolean): Line[] {
  const body = lines(rows);
  const header = [
    "figure",
    "unit",
    `goal: ${refLabel} → work`,
    refLabel,
    "working tree",
    "change",
    "",
    `runs ${refLabel}`,
    "runs working tree",
  ];
  console.log(
    `\nbench/${name}: ${refLabel} against the working tree, median of ${runs} run${runs > 1 ? "s" : ""} each (alternating, ABBA)`,
  );
  printColumns(
    header,
    body.map((l) => l.cells),
    new Set([3, 4, 5]),
  );
  if (markdown) {
    console.log("");
    console.log(`| ${header.map((h) => h || "flag").join(" | ")} |`);
    console.log(`|${header.map(() => "---").join("|")}|`);
    for (const l of body) console.log(`| ${l.cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`);
  }
  return body;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let commit: string;
  try {
    commit = git(["rev-parse", "--verify", "--quiet", `${opts.ref}^{commit}`]);
  } catch {
    usage(`${opts.ref} is not a commit of this repository`);
  }
  const short = commit.slice(0, 9);
  const refLabel = opts.ref === short || commit.startsWith(opts.ref) ? opts.ref : `${opts.ref} (${short})`;
  const head = git(["rev-parse", "--short=9", "HEAD"]);
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]) !== "";
  console.log(`bench/compare: ${commit} "${git(["log", "-1", "--format=%s (%cs)", commit]).slice(0, 100)}"`);
  console.log(`  against the working tree ${ROOT} (HEAD ${head}${dirty ? " with uncommitted changes" : ""})`);
  console.log(
    `  ${opts.runs} run${opts.runs > 1 ? "s" : ""} of each benchmark on each tree, alternating (ABBA); benchmarks: ${opts.only.join(", ")}`,
  );
  const knobs = Object.entries(process.env).filter(
    ([k]) => k.startsWith("BENCH_") && !k.startsWith("BENCH_COMPARE_"),
  );
  console.log(
    `  settings for both trees: ${knobs.length ? knobs.map(([k, v]) => `${k}=${v}`).join(" ") : "the benchmarks' defaults"}`,
  );

  const workScripts = benchScripts(fs.readFileSync(path.join(ROOT, "bench/package.json"), "utf8"));
  const refScripts = benchScripts(git(["show", `${commit}:bench/package.json`]));
  const refFiles = new Set(git(["ls-tree", "--name-only", commit, "bench/"]).split("\n"));
  const todo: string[] = [];
  for (const name of opts.only) {
    const script = `bench:${name}`;
    if (!refFiles.has(`bench/${name}.ts`) || !refScripts[script])
      log(`bench/${name}: absent at ${refLabel}, skipped`);
    else if (!fs.existsSync(path.join(ROOT, `bench/${name}.ts`)) || !workScripts[script])
      log(`bench/${name}: absent in the working tree, skipped`);
    else todo.push(name);
  }
  if (!todo.length) {
    log("nothing to compare");
    return 0;
  }

  let interrupted = false;
  process.on("SIGINT", () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    // Ctrl-C reached the running benchmark too (same process group): it cleans up its database.
    console.error("\ninterrupted: waiting for the running benchmark to clean up (Ctrl-C again to leave now)");
  });

  const refTree = await scratchTree(commit, short, opts.verbose);
  const logs = path.join(CACHE, "logs", new Date().toISOString().replace(/[:.]/g, "-"));
  fs.mkdirSync(logs, { recursive: true });
  log(`each run's output: ${logs}`);

  const trees = {
    ref: { dir: refTree, label: refLabel },
    work: { dir: ROOT, label: "working tree" },
  } as const;
  let failures = 0;
  const flagged: string[] = [];
  for (const name of todo) {
    const results: { tree: "ref" | "work"; figures: Figure[] }[] = [];
    for (let i = 1; i <= opts.runs && !interrupted; i++) {
      // ABBA: in plain alternation the working tree always ran second, after the ref's run (its
      // database dropped, PostgreSQL's checkpoint), and a drift of the host always fell on one side.
      for (const tree of i % 2 ? (["ref", "work"] as const) : (["work", "ref"] as const)) {
        if (interrupted) break;
        const file = path.join(logs, `${name}.${tree === "ref" ? short : "work"}.${i}.log`);
        const t0 = Date.now();
        log(`bench/${name} run ${i}/${opts.runs} on ${trees[tree].label}: started`);
        const code = await run(
          "npm",
          ["run", `bench:${name}`, "-w", "bench"],
          trees[tree].dir,
          file,
          opts.verbose,
        );
        const figures = BENCHMARKS[name]!(fs.readFileSync(file, "utf8"));
        const found = figures.filter((f) => Number.isFinite(f.value)).length;
        log(
          `bench/${name} run ${i}/${opts.runs} on ${trees[tree].label}: ${code === 0 ? "done" : interrupted ? "interrupted" : `FAILED (exit ${code})`} ` +
            `in ${elapsed(Date.now() - t0)}, ${found} of ${figures.length} figures read`,
        );
        if (code !== 0 && !interrupted) {
          failures++;
          console.log(`    the end of ${file}:\n${tail(file)}`);
        }
        results.push({ tree, figures });
      }
    }
    const body = printResult(name, refLabel, opts.runs, collect(results), opts.markdown);
    for (const l of body) if (l.worse) flagged.push(`bench/${name} · ${l.cells[0]}: ${l.cells[5]}`);
    if (interrupted) break;
  }

  console.log(
    `\n${flagged.length ? `Worse by more than ${FLAG * 100} % on the working tree:\n  ${flagged.join("\n  ")}` : `Nothing worse by more than ${FLAG * 100} % on the working tree.`}` +
      `${failures ? `\n${failures} run(s) failed: see their logs in ${logs}` : ""}`,
  );
  log(`done; the scratch tree stays in ${refTree} for the next compare of ${short}`);
  return interrupted ? 130 : failures ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
