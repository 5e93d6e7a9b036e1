export { headerFieldsOf, sieveHostFor, type FilterContext } from './message-host.js';
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
export { closeSievePool, configureSievePool, sieveWorkers, type SievePoolOptions } from './sieve-pool.js';
