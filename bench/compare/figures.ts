/**
 * The figures of each benchmark, read from the text it prints (bench/compare.ts). Both trees are
 * read the same way: an old ref cannot write anything else, and reading the working tree's text too
 * keeps the two sides to one code path and the same rounding. The benchmarks print two kinds of
 * tables (lib/stats.ts): `printTable` (a title, a line of dashes, "  key  value" rows) and
 * `printColumns` (a header, dashes per column, rows aligned to them). A row that is not found, or
 * prints "n/a", gives NaN: the figure shows as missing for that run instead of stopping the rest.
 */

export type Better = "higher" | "lower";

export interface Goal {
  op: "<=" | ">=" | "<" | ">";
  value: number;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  better: Better;
  goal?: Goal;
}

/** A `printTable` table: its title and its key/value rows. */
interface KeyValues {
  title: string;
  rows: [string, string][];
}

/** A `printColumns` table: the line before its header (the title), and each row by column name. */
interface Columns {
  title: string;
  rows: Map<string, string>[];
}

const DASHES = /^-+$/;
const COLUMN_DASHES = /^-+(?: {2}-+)+$/;

function keyValueTables(lines: string[]): KeyValues[] {
  const tables: KeyValues[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!DASHES.test(lines[i]!)) continue;
    const rows: [string, string][] = [];
    for (let j = i + 1; j < lines.length && lines[j]!.startsWith("  "); j++) {
      const line = lines[j]!.slice(2);
      const gap = /(?<=\S)\s{2,}/.exec(line);
      rows.push(
        gap ? [line.slice(0, gap.index).trim(), line.slice(gap.index + gap[0].length)] : [line.trim(), ""],
      );
    }
    tables.push({ title: lines[i - 1]!.trim(), rows });
  }
  return tables;
}

function columnTables(lines: string[]): Columns[] {
  const tables: Columns[] = [];
  for (let i = 1; i < lines.length; i++) {
    const dashes = lines[i]!;
    if (!COLUMN_DASHES.test(dashes)) continue;
    const spans: { start: number; end: number }[] = [];
    for (const m of dashes.matchAll(/-+/g)) spans.push({ start: m.index, end: m.index + m[0].length });
    const cells = (line: string) =>
      spans.map((s, k) => (k === spans.length - 1 ? line.slice(s.start) : line.slice(s.start, s.end)).trim());
    const header = cells(lines[i - 1]!);
    const rows: Map<string, string>[] = [];
    for (let j = i + 1; j < lines.length && lines[j]!.trim() !== ""; j++) {
      const line = lines[j]!;
      // The rows end at the summary line ("Goals (...): n of m MET") or a blank line.
      if (/^Goals? \(/.test(line)) break;
      const values = cells(line);
      rows.push(new Map(header.map((h, k) => [h, values[k] ?? ""])));
    }
    tables.push({ title: (lines[i - 2] ?? "").trim(), rows });
  }
  return tables;
}

/** The first number in a text ("1,825 msg/s" → 1825; "n/a" → NaN). */
export function num(text: string | undefined): number {
  const m = /[-+]?\d[\d,]*(?:\.\d+)?/.exec(text ?? "");
  return m ? Number(m[0].replace(/,/g, "")) : Number.NaN;
}

/** The number right after a label: numAfter("p50 1.0 ms  p99 9.0 ms", "p99") → 9. */
export function numAfter(text: string | undefined, label: string): number {
  const m = new RegExp(
    `${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*([-+]?\\d[\\d,]*(?:\\.\\d+)?)`,
  ).exec(text ?? "");
  return m ? Number(m[1]!.replace(/,/g, "")) : Number.NaN;
}

/** The number before a unit: numBefore("69.5 s, 7 msg/s", "msg/s") → 7. */
export function numBefore(text: string | undefined, unit: string): number {
  const m = new RegExp(
    `([-+]?\\d[\\d,]*(?:\\.\\d+)?)\\s*${unit.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`,
  ).exec(text ?? "");
  return m ? Number(m[1]!.replace(/,/g, "")) : Number.NaN;
}

/** A goal written in a label: "p99 ≤ 50 ms at 500 msg/s" → {<=, 50}; "(goal: grows < 50 MB)" → {<, 50}. */
export function goalIn(text: string | undefined, after = ""): Goal | undefined {
  const m = new RegExp(
    `${after.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^≤≥<>]*([≤≥<>])\\s*([-+]?\\d[\\d,]*(?:\\.\\d+)?)`,
  ).exec(text ?? "");
  if (!m) return undefined;
  const op = ({ "≤": "<=", "≥": ">=", "<": "<", ">": ">" } as const)[m[1] as "≤" | "≥" | "<" | ">"];
  return { op, value: Number(m[2]!.replace(/,/g, "")) };
}

/** What the benchmark printed, with lookups that never throw. */
class Output {
  private readonly kv: KeyValues[];
  private readonly cols: Columns[];
  constructor(readonly text: string) {
    const lines = text.split(/\r?\n/);
    this.kv = keyValueTables(lines);
    this.cols = columnTables(lines);
  }
  /** The value of the row whose key starts with `key`, in the first table whose title starts with `title`. */
  row(title: string, key: string): string | undefined {
    return this.kv.find((t) => t.title.startsWith(title))?.rows.find(([k]) => k.startsWith(key))?.[1];
  }
  /** The key itself (goals are written in keys: "messages/s ≥ 0.25 × raw rows/s"). */
  key(title: string, key: string): string | undefined {
    return this.kv.find((t) => t.title.startsWith(title))?.rows.find(([k]) => k.startsWith(key))?.[0];
  }
  columns(title: string): Map<string, string>[] {
    return this.cols.find((t) => t.title.startsWith(title))?.rows ?? [];
  }
  /** The first line matching, for one-line summaries ("Goals (...): 12 of 14 MET"). */
  line(pattern: RegExp): RegExpExecArray | null {
    for (const l of this.text.split(/\r?\n/)) {
      const m = pattern.exec(l);
      if (m) return m;
    }
    return null;
  }
}

/** Quoted words in call labels come from generated data (a contact's name): not part of the figure's name. */
const label = (text: string) => text.replace(/"[^"]*"/g, '"…"');

function inbound(o: Output): Figure[] {
  const a = "Phase A:";
  const b = "Phase B:";
  const ratioKey = o.key("Goals", "messages/s ≥");
  const p99Key = o.key("Goals", "p99 ≤");
  const cpuServer = (v: string | undefined) => num(/^server[^,]*?(\d[\d.]*) ms/.exec(v ?? "")?.[1]);
  return [
    { name: "A: messages/s", value: num(o.row(a, "messages/s")), unit: "msg/s", better: "higher" },
    {
      name: "A: send → agent socket p50",
      value: numAfter(o.row(a, "ingest"), "p50"),
      unit: "ms",
      better: "lower",
    },
    {
      name: "A: send → agent socket p99",
      value: numAfter(o.row(a, "ingest"), "p99"),
      unit: "ms",
      better: "lower",
    },
    {
      name: "A: server CPU per message",
      value: cpuServer(o.row(a, "CPU per message")),
      unit: "ms",
      better: "lower",
    },
    {
      name: "A: PostgreSQL CPU per message",
      value: numAfter(o.row(a, "CPU per message"), "PostgreSQL"),
      unit: "ms",
      better: "lower",
    },
    {
      name: "baseline: raw INSERT rows/s",
      value: num(o.row("Baseline:", "rows/s")),
      unit: "rows/s",
      better: "higher",
    },
    {
      name: "A messages/s ÷ raw rows/s",
      value: num(o.row("Goals", "messages/s ≥")),
      unit: "×",
      better: "higher",
      goal: goalIn(ratioKey),
    },
    {
      name: "B: achieved send rate",
      value: num(o.row(b, "achieved send rate")),
      unit: "msg/s",
      better: "higher",
    },
    {
      name: "B: send → agent socket p99",
      value: numAfter(o.row("Goals", "p99 ≤"), "p99"),
      unit: "ms",
      better: "lower",
      goal: goalIn(p99Key),
    },
    {
      name: "B: server CPU per message",
      value: cpuServer(o.row(b, "CPU per message")),
      unit: "ms",
      better: "lower",
    },
  ];
}

/** bench/tickets and bench/dashboard: a "Results" column table, p95 per call against its goal. */
function perCall(o: Output): Figure[] {
  const figures: Figure[] = o.columns("Results:").map((row) => {
    const who = row.get("who");
    const call = label(row.get("call") ?? "?");
    const goal = row.get("goal p95");
    return {
      name: `${who ? `${who} · ` : ""}${call}: p95`,
      value: num(row.get("p95")),
      unit: "ms",
      better: "lower" as const,
      goal: goal && goal !== "none" ? goalIn(goal) : undefined,
    };
  });
  const met = o.line(/^Goals? \(.*?: (\d+) of (\d+) MET/);
  figures.push({
    name: "calls that MET their goal",
    value: met ? Number(met[1]) : Number.NaN,
    unit: met ? `of ${met[2]}` : "calls",
    better: "higher",
  });
  return figures;
}

function fanout(o: Output): Figure[] {
  const t = "bench/fanout:";
  const goalKey = o.key(t, "goal:");
  const third = (v: string | undefined, i: number) => num(v?.split(" / ")[i]);
  const ratioGoal = /([≤<])\s*(\d[\d.]*)×\s*bare/.exec(goalKey ?? "");
  return [
    {
      name: "connecting the sockets",
      value: num(o.row(t, "connecting the sockets")),
      unit: "s",
      better: "lower",
    },
    {
      name: "app: PUT → last socket p50",
      value: third(o.row(t, "app, one instance"), 0),
      unit: "ms",
      better: "lower",
    },
    {
      name: "app: PUT → last socket p99",
      value: third(o.row(t, "app, one instance"), 1),
      unit: "ms",
      better: "lower",
      goal: goalIn(goalKey, "p99"),
    },
    { name: "bare Socket.IO p99", value: third(o.row(t, "bare Socket.IO"), 1), unit: "ms", better: "lower" },
    {
      name: "app p99 ÷ bare p99",
      value: num(o.row(t, "app p99 ÷ bare p99")),
      unit: "×",
      better: "lower",
      goal: ratioGoal ? { op: ratioGoal[1] === "<" ? "<" : "<=", value: Number(ratioGoal[2]) } : undefined,
    },
    {
      name: "two instances + Redis p99",
      value: third(o.row(t, "two instances"), 1),
      unit: "ms",
      better: "lower",
    },
    {
      name: "server heap per socket (app)",
      value: numBefore(o.row(t, "server memory per connected socket (app)"), "KiB heap"),
      unit: "KiB",
      better: "lower",
    },
    // Issue 40: presence must be O(n) at 1,000 agents (was ~525,000 events).
    {
      name: "events heard while connecting",
      value: num(o.row(t, "socket events heard while connecting")),
      unit: "events",
      better: "lower",
    },
  ];
}

function campaign(o: Output): Figure[] {
  const t = "bench/campaign:";
  const heapKey = o.key(t, "server heap");
  const heap = o.row(t, "server heap");
  return [
    { name: "agent sends, all taken", value: num(o.row(t, "agent sends")), unit: "s", better: "lower" },
    {
      name: "campaign: start → FINALIZADA",
      value: num(o.row(t, "campaign: start → FINALIZADA")),
      unit: "s",
      better: "lower",
    },
    {
      name: "campaign: start → every message taken",
      value: num(o.row(t, "campaign: start → every message")),
      unit: "s",
      better: "lower",
    },
    {
      name: "campaign ÷ agent sends",
      value: num(o.row(t, "campaign ÷ agent sends")),
      unit: "×",
      better: "higher",
      goal: goalIn(o.key(t, "campaign ÷ agent sends")),
    },
    {
      name: "server heap growth",
      value: num(/\(([-+]?\d[\d.]*) MB\)/.exec(heap ?? "")?.[1]),
      unit: "MB",
      better: "lower",
      goal: goalIn(heapKey),
    },
    {
      name: "recipients who got it twice",
      value: num(o.row(t, "recipients who got the campaign twice")),
      unit: "",
      better: "lower",
    },
  ];
}

function importBench(o: Output): Figure[] {
  const t = "bench/import:";
  return [
    {
      name: "parse only",
      value: numBefore(o.row(t, "parse only"), "row/s"),
      unit: "rows/s",
      better: "higher",
    },
    {
      name: "import: upload → done",
      value: numBefore(o.row(t, "import: upload"), "row/s"),
      unit: "rows/s",
      better: "higher",
    },
    {
      name: "import ÷ parse only",
      value: num(o.row(t, "import ÷ parse only")),
      unit: "×",
      better: "higher",
      goal: goalIn(o.key(t, "import ÷ parse only")),
    },
    {
      name: "server process peak RSS growth",
      value: num(o.row(t, "server process peak RSS growth")),
      unit: "MB",
      better: "lower",
      goal: goalIn(o.key(t, "server process peak RSS growth")),
    },
    {
      name: "server event loop: longest stall",
      value: num(o.row(t, "server event loop")),
      unit: "ms",
      better: "lower",
    },
  ];
}

/** The benchmarks bench/compare knows, in the order it runs them, and how to read each one's output. */
export const BENCHMARKS: Record<string, (text: string) => Figure[]> = {
  inbound: (text) => inbound(new Output(text)),
  tickets: (text) => perCall(new Output(text)),
  dashboard: (text) => perCall(new Output(text)),
  fanout: (text) => fanout(new Output(text)),
  campaign: (text) => campaign(new Output(text)),
  import: (text) => importBench(new Output(text)),
};
