export {
  startQueueWorker,
  startRecurringJob,
  wakeJobs,
  runDueJob,
  runJobsNow,
  processLeaseOwner,
  goneLocalOwners,
  type JobContext,
  type JobHandler,
  type JobOutcome,
  type QueueWorker,
  type RecurringJob,
} from './queue.js';
export {
  deleteJob,
  enqueueJob,
  enqueueJobs,
  expireLeasesOf,
  findJob,
  jobBackoffMs,
  liveLeaseOwners,
  type Job,
} from './jobs.repository.js';
export { timeSlicer } from './slices.js';
