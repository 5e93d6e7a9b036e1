export { contactRoutes } from './contacts.routes.js';
export { isKnownSender } from './contacts.service.js';
export { contactAddresses } from './contacts.repository.js';
export { recordCorrespondents } from './correspondents.repository.js';
export { runContactImport, startContactImports } from './transfer.service.js';
export { blobsOfImports } from './imports.repository.js';
