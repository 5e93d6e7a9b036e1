export * from './errors.js';
export * from './schemas/common.js';
export * from './schemas/auth.js';
export * from './schemas/user.js';
export * from './schemas/folders.js';
export * from './constants.js';
export * from './validation.js';
export * from './format.js';
