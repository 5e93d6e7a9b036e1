export {
  WorkerPool,
  WorkerTimeoutError,
  workerModule,
  type WorkerPoolHooks,
  type WorkerPoolOptions,
} from './worker-pool.js';
export { serveJobs } from './worker-serve.js';
