import { compile, run, SieveSyntaxError, type Script } from '@mailroom/sieve';
import { serveJobs } from '../core/workers/index.js';
import { findFolder } from './mailboxes.js';
import { sieveHostFor } from './message-host.js';
import type { SieveCompileJob, SieveCompileProblem, SieveJob, SieveJobResult } from './sieve-pool.js';

/** Scripts this worker compiled, by options and text (an account's script is compiled once per change). */
const compiled = new Map<string, Script>();
const compiledLimit = 64;

/** The compiled script, or why it does not compile. */
function scriptOf(job: SieveJob | SieveCompileJob): Script | SieveCompileProblem {
  const key = `${JSON.stringify(job.compileOptions)}\n${job.source}`;
  let script = compiled.get(key);
  if (!script) {
    try {
      script = compile(job.source, {}, job.compileOptions);
    } catch (err) {
      if (!(err instanceof SieveSyntaxError)) throw err;
      return {
        message: err.message,
        reason: err.reason,
        line: err.position.line,
        column: err.position.column,
        ...(err.limit ? { limit: err.limit } : {}),
      };
    }
    if (compiled.size >= compiledLimit) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, script);
  }
  return script;
}

const wantsMailboxes = new Error('the mailboxes are wanted');
const wantsBody = new Error('the body is wanted');

/** One run per message; the pool (sieve-pool.ts) bounds this thread's time and heap. */
serveJobs<SieveJob | SieveCompileJob, SieveJobResult>(async (job) => {
  const script = scriptOf(job);
  if ('compile' in job) return 'commands' in script ? { compileError: null } : { compileError: script };
  // A saved script that no longer compiles (the interpreter changed), or has no commands, runs as no filter.
  if (!('commands' in script)) return { compileError: script };
  if (!script.commands.length) return { compileError: null };
  // The shared bytes are copied into this thread's memory: decoders take no shared memory.
  const raw = Buffer.from(job.raw);
  const host = await sieveHostFor(
    raw,
    {
      envelopeFrom: job.envelopeFrom,
      envelopeTo: job.envelopeTo,
      ...(job.bodyParts === false ? { bodyParts: false } : {}),
      ...(job.now !== undefined ? { now: () => new Date(job.now!) } : {}),
      ...(job.spam ? { spam: job.spam } : {}),
      ...(job.headOnly
        ? {
            headOnly: () => {
              throw wantsBody;
            },
          }
        : {}),
    },
    job.size ?? raw.length,
  );
  const folders = job.mailboxes?.map((name, id) => ({ id, name }));
  try {
    const result = run(
      script,
      {
        ...host,
        mailboxExists: (name) => {
          if (!folders) throw wantsMailboxes;
          return findFolder(folders, name) !== undefined;
        },
      },
      { timeLimitMs: job.timeLimitMs },
    );
    return { result };
  } catch (err) {
    if (err === wantsMailboxes) return { wantsMailboxes: true };
    if (err === wantsBody) return { wantsBody: true };
    throw err;
  }
});
