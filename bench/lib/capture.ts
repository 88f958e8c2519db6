import pg from "pg";

/**
 * The SQL statements a request makes, captured from `pg` in this thread (the server must run inline
 * here), so a call that misses its goal can be shown with EXPLAIN (ANALYZE, BUFFERS) of what it ran.
 */
export interface Statement {
  text: string;
  values: unknown[];
}

export interface Explained extends Statement {
  /** PostgreSQL's "Execution Time" of the statement run alone, ms. */
  executionMs: number;
  planningMs: number;
  plan: string[];
}

let sink: Statement[] | null = null;
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  type AnyFn = (...args: unknown[]) => unknown;
  const proto = pg.Client.prototype as unknown as { query: AnyFn };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (sink) {
      const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
      const text = typeof first === "string" ? first : (first?.text ?? "");
      const values = Array.isArray(args[1]) ? args[1] : typeof first === "object" ? (first.values ?? []) : [];
      sink.push({ text, values });
    }
    return query.apply(this, args);
  };
}

/** Runs `request` and answers the statements sent through `pg` meanwhile (nothing else may query then). */
export async function captureStatements(request: () => Promise<unknown>): Promise<Statement[]> {
  install();
  const statements: Statement[] = [];
  sink = statements;
  try {
    await request();
  } finally {
    sink = null;
  }
  return statements;
}

/** EXPLAIN (ANALYZE, BUFFERS) of each read statement, slowest first. */
export async function explainReads(client: pg.Client, statements: Statement[]): Promise<Explained[]> {
  const explained: Explained[] = [];
  for (const s of statements) {
    if (!/^\s*(select|with)\b/i.test(s.text)) continue;
    const { rows } = await client.query<{ "QUERY PLAN": string }>(
      `explain (analyze, buffers) ${s.text}`,
      s.values,
    );
    const plan = rows.map((r) => r["QUERY PLAN"]);
    const time = (label: string) =>
      Number(
        plan
          .find((l) => l.startsWith(label))
          ?.split(":")[1]
          ?.trim()
          .split(" ")[0],
      );
    explained.push({ ...s, plan, executionMs: time("Execution Time"), planningMs: time("Planning Time") });
  }
  return explained.sort((a, b) => b.executionMs - a.executionMs);
}
