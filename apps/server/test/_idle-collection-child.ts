/**
 * Run by idle-collection.test.ts (with and without --expose-gc): makes ~60 MB of garbage, goes quiet, and prints
 * as JSON the collections `startIdleCollection` made and the heap's used bytes before the quiet and after it.
 */
import v8 from 'node:v8';
import { startIdleCollection } from '../src/core/idle-collection.js';

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
