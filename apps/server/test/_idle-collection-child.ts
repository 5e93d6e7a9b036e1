/**
 * Run by idle-collection.test.ts (with and without --expose-gc): makes ~60 MB of garbage, goes quiet, and prints
 * as JSON the collections `startIdleCollection` made and the heap's used bytes before the quiet and after it.
 * With `busy`: three rounds of the same garbage with no quiet between them, each followed by
 * `collectGarbageIfGrown` (as a collector's import calls it between batches); prints each round's outcome.
 */
import v8 from 'node:v8';
import { collectGarbageIfGrown, startIdleCollection } from '../src/core/idle-collection.js';

if (process.argv[2] === 'busy') {
  const rounds: { before: number; after: number; collected: boolean }[] = [];
  for (let round = 0; round < 3; round++) {
    let rows: { n: number; text: string }[] = [];
    for (let i = 0; i < 600_000; i++) {
      rows.push({ n: i, text: `row ${i}` });
      if (rows.length === 200_000) rows = [];
    }
    const before = v8.getHeapStatistics().used_heap_size;
    const collected = collectGarbageIfGrown(20 * 1024 * 1024);
    rounds.push({ before, after: v8.getHeapStatistics().used_heap_size, collected });
  }
  console.log(JSON.stringify({ rounds }));
  process.exit(0);
}

const collections: { before: number; after: number }[] = [];
const idle = startIdleCollection({
  intervalMs: 300,
  collected: (before, after) => collections.push({ before, after }),
});
let kept: { n: number; text: string }[] = [];
for (let i = 0; i < 600_000; i++) {
  kept.push({ n: i, text: `row ${i}` });
  if (kept.length === 200_000) kept = [];
}
const before = v8.getHeapStatistics().used_heap_size;
await new Promise((resolve) => setTimeout(resolve, 1500));
idle.stop();
console.log(JSON.stringify({ collections, before, after: v8.getHeapStatistics().used_heap_size }));
