import fs from "node:fs";
import pg from "pg";

/** Linux reports process times in clock ticks of 1/100 s (USER_HZ). */
const TICK_MS = 10;

export interface CpuTime {
  /** user + kernel, ms */
  total: number;
  /** in the kernel (system calls: sockets, fsync, ...), ms */
  kernel: number;
}

/** utime and stime of one /proc stat file, in ms; NaN where /proc is not there. */
function cpuOf(statPath: string): CpuTime {
  try {
    const text = fs.readFileSync(statPath, "utf8");
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const user = Number(fields[11]) * TICK_MS;
    const kernel = Number(fields[12]) * TICK_MS;
    return { total: user + kernel, kernel };
  } catch {
    return { total: Number.NaN, kernel: Number.NaN };
  }
}

const cpuMsOf = (statPath: string) => cpuOf(statPath).total;

/**
 * CPU time the calling thread has used (10 ms resolution). Unlike wall time and event-loop
 * utilization, it hardly grows when other work on the machine takes the cores away.
 */
export function threadCpu(): CpuTime {
  return cpuOf("/proc/thread-self/stat");
}

export function threadCpuMs(): number {
  return threadCpu().total;
}

/**
 * CPU time used by the PostgreSQL backends connected to one database (its clients' work in the
 * server: parsing, executing, WAL inserts, commit flushes done by the backend itself).
 */
export class PostgresCpu {
  private constructor(
    private readonly client: pg.Client,
    private readonly database: string,
  ) {}

  static async open(url: string, database: string): Promise<PostgresCpu> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new PostgresCpu(client, database);
  }

  private async snapshot(): Promise<Map<number, number>> {
    const { rows } = await this.client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [this.database],
    );
    return new Map(rows.map((r) => [r.pid, cpuMsOf(`/proc/${r.pid}/stat`)]));
  }

  /** Starts a measurement; `stop()` answers the backends' CPU ms since (backends that left are lost). */
  async start(): Promise<{ stop(): Promise<number> }> {
    const before = await this.snapshot();
    return {
      stop: async () => {
        const after = await this.snapshot();
        let total = 0;
        for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
        return total;
      },
    };
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
