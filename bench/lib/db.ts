import pg from "pg";

/** The PostgreSQL server the benchmarks use; BENCH_DATABASE_URL overrides it. */
export function serverUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
}

/** The URL of another database on the same server. */
export function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates an empty database for one run; `drop()` removes it (waiting for the last backends to leave),
 * unless BENCH_KEEP_DB=1 keeps it to study the run's data afterwards (its name is printed; drop it by hand).
 */
export async function createScratchDatabase(
  prefix: string,
): Promise<{ name: string; url: string; drop(): Promise<void>; forceDrop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: databaseUrl(name),
    /** Drops it even with sessions still connected (an interrupted run). */
    async forceDrop() {
      const client = new pg.Client({ connectionString: serverUrl() });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
    async drop() {
      if (process.env.BENCH_KEEP_DB === "1") {
        console.log(`BENCH_KEEP_DB=1: database ${name} kept`);
        return;
      }
      const client = new pg.Client({ connectionString: serverUrl() });
      await client.connect();
      try {
        // pool.end() resolves before every backend has gone: wait for them rather than kill one mid-goodbye.
        for (let attempt = 0; ; attempt++) {
          try {
            await client.query(`drop database if exists ${name}`);
            return;
          } catch (err) {
            if ((err as { code?: string }).code !== "55006" || attempt >= 50) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}
