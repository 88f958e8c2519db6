import fs from "node:fs";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

/** This thread's CPU time in ms (Linux: /proc/thread-self/stat, in clock ticks of 10 ms), else null. */
function threadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync("/proc/thread-self/stat", "utf8");
    // After the command's name (in parentheses, spaces allowed): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * How long this thread's event loop was held at once while `work` ran. Every 10 ms tick, the
 * timer's lateness (what monitorEventLoopDelay measures) is counted only as far as the thread was
 * busy since the tick before (event-loop utilization) and, where Linux says, as far as it ran on a
 * core (its CPU time; one clock tick of slack). A thread held by its own work is busy and running
 * all that time; one that waited for a core on a loaded machine (idle, or preempted) is not taken
 * for held. `late` is the raw lateness, for a failure's message.
 */
export async function loopHold(work: Promise<unknown>): Promise<{ held: number; late: number }> {
  const raw = monitorEventLoopDelay({ resolution: 10 });
  raw.enable();
  let held = 0;
  let last = performance.now();
  let lastCpu = threadCpuMs();
  let since = performance.eventLoopUtilization();
  const tick = setInterval(() => {
    const now = performance.now();
    const busy = performance.eventLoopUtilization(since).active;
    since = performance.eventLoopUtilization();
    const cpu = threadCpuMs();
    const ran = cpu !== null && lastCpu !== null ? cpu - lastCpu + 10 : Infinity;
    lastCpu = cpu;
    held = Math.max(held, Math.min(now - last - 10, busy, ran));
    last = now;
  }, 10);
  try {
    await work;
  } finally {
    clearInterval(tick);
    raw.disable();
  }
  return { held, late: raw.max / 1e6 };
}
