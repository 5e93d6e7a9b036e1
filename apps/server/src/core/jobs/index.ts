export { startPeriodicJob, type PeriodicJob } from './periodic.js';
export { startRecurringJob } from './recurring.js';
export { timeSlicer } from './slices.js';
