import { LIMITS } from "@atende/contracts";
import { useSyncExternalStore } from "react";

// One clock for every label on screen, ticking every 30 s while anyone listens.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: number | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = window.setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, LIMITS.timeLabelRefreshMs);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time, refreshed every 30 s (the spec's time-label refresh). */
export function useClock(): number {
  return useSyncExternalStore(subscribe, () => now);
}
