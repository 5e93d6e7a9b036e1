import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * Gives the JavaScript heap back when the server goes quiet. V8 shrinks a heap that grew under load only in a major
 * collection, and its memory reducer starts one only soon after another: a server that goes quiet after a burst (a
 * mailbox filled over SMTP, a run of reads) kept about twice its live heap (~110 MB for ~50 MB live). Every
 * `intervalMs` this looks at the last interval: when the event loop was busy for less than `quietShare` of it and the
 * heap holds `minGarbageBytes` more than after the last collection made here, it collects once (tens of ms on a heap
 * this size). It needs `gc`, which `--expose-gc` (the serve script) provides; without it, it does nothing.
 */
const used = () => v8.getHeapStatistics().used_heap_size;
/** The heap's used bytes after the last collection made here (by the idle timer or by a long run of work). */
let usedAfter = used();

/**
 * A long run of work that keeps the server busy (a collector importing a whole mailbox) calls this between its steps:
 * when the heap holds `minGarbageBytes` more than after the last collection made here, it collects once. Under
 * steady load V8 lets the old generation fill with garbage (every batch's sources and parsed messages outlive the
 * small young generation) to 2–3 × the live heap before a major collection; this keeps it near live + `minGarbageBytes`
 * for a few tens of ms per collection. Without `gc` (no --expose-gc) it does nothing. True when it collected.
 */
export function collectGarbageIfGrown(minGarbageBytes = 32 * 1024 * 1024): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function' || used() - usedAfter < minGarbageBytes) return false;
  gc();
  usedAfter = used();
  return true;
}

export function startIdleCollection(
  opts: {
    intervalMs?: number;
    quietShare?: number;
    minGarbageBytes?: number;
    /** Told the heap's used bytes before and after each collection. */
    collected?: (before: number, after: number) => void;
  } = {},
): { stop(): void } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return { stop: () => undefined };
  const { intervalMs = 10_000, quietShare = 0.05, minGarbageBytes = 8 * 1024 * 1024 } = opts;
  usedAfter = used();
  let since = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const busy = performance.eventLoopUtilization(since).utilization;
    const before = used();
    if (busy < quietShare && before - usedAfter >= minGarbageBytes) {
      gc();
      usedAfter = used();
      opts.collected?.(before, usedAfter);
    }
    since = performance.eventLoopUtilization();
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
