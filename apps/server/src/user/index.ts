export { userRoutes } from './user.routes.js';
export { aliasRoutes } from './aliases.routes.js';
export { delegatedSessionRoutes, domainEmailRoutes } from './domain-emails.routes.js';
export { domainRoutes } from './domains.routes.js';
