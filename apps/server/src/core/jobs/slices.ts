import { performance } from 'node:perf_hooks';

/**
 * For long work done in one process (an import's parsing, its batches): `pause()` lets other work run (a turn of the
 * event loop, setImmediate) once `budgetMs` has passed since the last pause, and is free otherwise. Called between
 * small steps, it keeps the loop from being held much longer than the budget.
 */
export function timeSlicer(budgetMs = 20): { pause(): Promise<void>; spent(): boolean } {
  let start = performance.now();
  return {
    spent: () => performance.now() - start >= budgetMs,
    async pause() {
      if (performance.now() - start < budgetMs) return;
      await new Promise((resolve) => setImmediate(resolve));
      start = performance.now();
    },
  };
}
