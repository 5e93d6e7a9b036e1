export { liveUpdates, type LiveUpdatesOptions } from './ws-hub.js';
