export { InProcessEventBus, type EventBus, type EventHandler } from './event-bus.js';
