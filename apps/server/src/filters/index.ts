export {
  FILTER_BODY_MAX_BYTES,
  headerFieldsOf,
  sieveHostFor,
  type FilterContext,
  type FilterMessage,
} from './message-host.js';
export { autoReplyRefusal } from './auto-reply.js';
export { claimFilterSend, claimVacationReply } from './filters.repository.js';
export { runSieveTest, type SieveTestOptions } from './sieve-test.js';
export { filterRoutes } from './filters.routes.js';
export {
  inboxOnly,
  planDelivery,
  type DeliveryCopy,
  type DeliveryEnvelope,
  type DeliveryPlan,
  type OutgoingAction,
} from './delivery-plan.js';
export { recordFilterErrors } from './filters.service.js';
export { runFilterBatch, startFilterRuns, type FilterRunDeps } from './filter-runs.service.js';
export {
  claimRedirect,
  redirectRefusal,
  type RedirectClaim,
  type RedirectLimits,
} from './redirect-policy.js';
export { closeSievePool, configureSievePool, sieveWorkers, type SievePoolOptions } from './sieve-pool.js';
