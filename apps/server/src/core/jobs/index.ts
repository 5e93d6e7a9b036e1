export * from './periodic.js';
