import { parentPort } from 'node:worker_threads';
import { parseMessageUnbounded } from './parse-message.js';

/** One parse per message; the pool (parse-pool.ts) bounds this thread's heap and time. */
parentPort?.on('message', (job: { id: number; raw: Uint8Array }) => {
  const raw = Buffer.from(job.raw.buffer, job.raw.byteOffset, job.raw.byteLength);
  parseMessageUnbounded(raw).then(
    (parsed) => parentPort?.postMessage({ id: job.id, parsed }),
    (err: unknown) => parentPort?.postMessage({ id: job.id, error: String(err) }),
  );
});
