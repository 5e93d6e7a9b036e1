export { userRoutes } from './user.routes.js';
export { aliasRoutes } from './aliases.routes.js';
export { delegatedSessionRoutes, domainEmailRoutes } from './domain-emails.routes.js';
export { domainRoutes } from './domains.routes.js';
export { ALIAS_INVOICE_PURPOSE, aliasInvoicePurpose } from './aliases.service.js';
export { DOMAIN_EMAIL_INVOICE_PURPOSE, domainEmailInvoicePurpose } from './domain-emails.service.js';
export { DOMAIN_INVOICE_PURPOSE, domainInvoicePurpose } from './domains.service.js';
