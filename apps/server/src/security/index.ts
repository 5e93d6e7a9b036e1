export { impersonationRoutes, securityRoutes } from './security.routes.js';
