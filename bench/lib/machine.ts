import os from "node:os";
import { machineCpu, pct } from "./stats.js";

/**
 * How busy the machine is before a run (sampled for a second): other work on a 2-core machine moves
 * every figure.
 */
export async function idleCheck(): Promise<number> {
  const cpu = machineCpu();
  await new Promise((r) => setTimeout(r, 1000));
  const busy = cpu.stop();
  const load = os.loadavg().map((l) => l.toFixed(1));
  console.log(
    `machine before the run: CPU ${pct(busy)} busy, load average ${load.join(" ")}, ${os.cpus().length} cores`,
  );
  if (busy > 0.25)
    console.log("  warning: other work is running on this machine; the figures below are disturbed by it.");
  return busy;
}
