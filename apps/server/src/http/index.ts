export { cookieOptions } from './cookies.js';
export { CSRF_HEADER, csrfPlugin } from './csrf.js';
export { clientErrorHandler, frameworkErrorHandler, toApiError, type ApiError } from './errors.js';
export { inProcessFetch } from './in-process-fetch.js';
export { metricsPlugin } from './metrics.js';
export { securityHeadersPlugin } from './security-headers.js';
export { postgresRateLimitStore } from './rate-limit-store.js';
export { apiRoute, checkRouteTable, type RouteDocs } from './api-route.js';
export { noNulPlugin } from './no-nul.js';
