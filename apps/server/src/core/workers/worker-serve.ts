import { parentPort } from 'node:worker_threads';

/**
 * The worker side of a `WorkerPool`: says it is ready once its module has loaded, then answers each job with the
 * handler's result, or its error's text. Jobs come one at a time (the pool gives a worker one job until it answers).
 */
export function serveJobs<I, O>(
  handler: (job: I) => O | Promise<O>,
  transfer?: (result: O) => ArrayBuffer[],
) {
  const port = parentPort;
  if (!port) return;
  port.on('message', (job: I & { id: number }) => {
    Promise.resolve()
      .then(() => handler(job))
      .then(
        (result) => port.postMessage({ id: job.id, result }, transfer?.(result) ?? []),
        (err: unknown) => port.postMessage({ id: job.id, error: String(err) }),
      );
  });
  port.postMessage({ ready: true });
}
