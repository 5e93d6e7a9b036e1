export { contactRoutes } from './contacts.routes.js';
export { isKnownSender } from './contacts.service.js';
export { recordCorrespondents } from './correspondents.repository.js';
