import { useEffect, useRef } from "react";

/**
 * `fn`, run at once when called, then at most once per `ms`: calls in between are folded into one
 * run at the end of the wait. For live events that come in bursts (an import's batches) and each
 * ask for the same reload.
 */
export function useThrottledCallback(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  const state = useRef<{ timer: number | null; pending: boolean }>({ timer: null, pending: false });
  useEffect(() => {
    latest.current = fn;
  });
  useEffect(
    () => () => {
      if (state.current.timer !== null) window.clearTimeout(state.current.timer);
      state.current = { timer: null, pending: false };
    },
    [],
  );
  const call = useRef(() => {
    const s = state.current;
    if (s.timer !== null) {
      s.pending = true;
      return;
    }
    latest.current();
    const wait = () => {
      s.timer = window.setTimeout(() => {
        s.timer = null;
        if (s.pending) {
          s.pending = false;
          latest.current();
          wait();
        }
      }, ms);
    };
    wait();
  });
  return call.current;
}
