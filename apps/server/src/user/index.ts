export { userRoutes } from './user.routes.js';
export { aliasRoutes } from './aliases.routes.js';
export { domainRoutes } from './domains.routes.js';
export { registerUnbuiltDomainRoutes } from './unbuilt-domain-routes.js';
