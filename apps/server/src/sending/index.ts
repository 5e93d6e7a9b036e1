export { sendingRoutes } from './sending.routes.js';
export { startSendingJobs } from './jobs.js';
export {
  prepareMessage,
  sendMessage,
  saveDraft,
  type PreparedMessage,
  type SendingDeps,
} from './sending.service.js';
export type { OutgoingMessage, OutgoingAttachment } from './compose-mime.js';
export { filterActionSender, redirectedFromHeader, withFilterActions } from './filter-actions.js';
export { blobsOfSending, findUploads } from './sending.repository.js';
export { releaseScheduledSend, SCHEDULED_SEND } from './scheduled.js';
