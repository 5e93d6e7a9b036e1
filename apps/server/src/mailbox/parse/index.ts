export { parseMessage, parseMessageFile, readHead } from './parse.js';
export { normaliseMessageId, previewOf, type ParsedAttachment, type ParsedMessage } from './message-text.js';
export { closeParsePool, configureParsePool, parseWorkers, type ParsePoolOptions } from './parse-pool.js';
