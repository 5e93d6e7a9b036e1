export { supportRoutes } from './support.routes.js';
export { operatorSupportRequests, type OperatorSupportRequest } from './support.service.js';
