import fs from "node:fs";

/** The q-quantile (0..1) of already sorted values, nearest-rank. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  return {
    count: sorted.length,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean,
  };
}

export const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : "n/a");
export const rate = (v: number, unit: string) => (Number.isFinite(v) ? `${v.toFixed(0)} ${unit}/s` : "n/a");
export const pct = (v: number) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)} %` : "n/a");

/** A two-column table with a title, printed as plain text. */
export function printTable(title: string, rows: [string, string][]): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${title}`);
  console.log("-".repeat(Math.max(title.length, width + 20)));
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
}

/** A text table, the columns in `right` aligned right (numbers). */
export function printColumns(header: string[], lines: string[][], right: Set<number>): void {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells
      .map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(format(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) console.log(format(l));
}

/** Busy and total jiffies of the whole machine, from /proc/stat (Linux); null elsewhere. */
function cpuTimes(): { busy: number; total: number } | null {
  try {
    const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!;
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const total = fields.reduce((s, v) => s + v, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Measures how busy the machine's CPUs were between start and stop (0..1 over all cores). */
export function machineCpu(): { stop(): number } {
  const start = cpuTimes();
  return {
    stop() {
      const end = cpuTimes();
      if (!start || !end || end.total === start.total) return Number.NaN;
      return (end.busy - start.busy) / (end.total - start.total);
    },
  };
}
