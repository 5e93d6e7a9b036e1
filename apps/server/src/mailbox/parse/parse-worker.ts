import { parentPort } from 'node:worker_threads';
import { parseMessageFileUnbounded, parseMessageUnbounded } from './parse-message.js';

/** One parse per message; the pool (parse-pool.ts) bounds this thread's heap and time. */
parentPort?.on('message', (job: { id: number; raw?: Uint8Array; file?: string; size?: number }) => {
  const parsing = job.raw
    ? parseMessageUnbounded(Buffer.from(job.raw.buffer, job.raw.byteOffset, job.raw.byteLength))
    : parseMessageFileUnbounded(job.file!);
  parsing.then(
    (parsed) => parentPort?.postMessage({ id: job.id, parsed }),
    (err: unknown) => parentPort?.postMessage({ id: job.id, error: String(err) }),
  );
});
