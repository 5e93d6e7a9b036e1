import { serveJobs } from '../../core/workers/index.js';
import type { ParsedMessage } from './message-text.js';
import { parseMessageFileUnbounded, parseMessageUnbounded } from './parse-message.js';

/** One parse per message; the pool (parse-pool.ts) bounds this thread's heap and time. */
serveJobs<{ raw?: Uint8Array; file?: string }, ParsedMessage>((job) =>
  job.raw
    ? parseMessageUnbounded(Buffer.from(job.raw.buffer, job.raw.byteOffset, job.raw.byteLength))
    : parseMessageFileUnbounded(job.file!),
);
