export { userRoutes } from './user.routes.js';
export { aliasRoutes } from './aliases.routes.js';
export { domainRoutes } from './domains.routes.js';
