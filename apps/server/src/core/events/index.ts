import pino from 'pino';
import type { Config } from '../../config.js';
import { InProcessEventBus, type EventBus } from './event-bus.js';
import { PgEventBus } from './pg-event-bus.js';

export {
  InProcessEventBus,
  type EventBus,
  type EventHandler,
  type SessionEndedHandler,
} from './event-bus.js';
export { PgEventBus, splitForNotify, type PgEventBusOptions } from './pg-event-bus.js';
export { emit, type EventSink, type PublishLog } from './publish.js';

/**
 * With PostgreSQL several server processes may share the database, so events cross between
 * them over LISTEN/NOTIFY; embedded PGlite is one process, where the in-process bus suffices.
 */
export async function createEventBus(config: Config): Promise<EventBus> {
  if (!config.databaseUrl) return new InProcessEventBus();
  return PgEventBus.connect({
    connectionString: config.databaseUrl,
    log: pino({ level: config.logLevel, name: 'events' }),
  });
}
