import v8 from "node:v8";

export interface ThreadMemory {
  /** The calling thread's V8 heap in use (a worker has a heap of its own). */
  heapUsed: number;
  /** Memory outside the heap that the thread's objects hold (buffers), as V8 counts it. */
  external: number;
}

/** The calling thread's memory, after a full collection when `gc` is exposed (node --expose-gc). */
export function threadMemory(): ThreadMemory {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const stats = v8.getHeapStatistics() as v8.HeapInfo & { external_memory?: number };
  return { heapUsed: stats.used_heap_size, external: stats.external_memory ?? 0 };
}
