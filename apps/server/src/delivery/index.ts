import { closeSievePool } from '../filters/index.js';
import { closeParsePool } from '../mailbox/index.js';
import { startIngestServer, type IngestServer } from './smtp-server.js';
import type { IngestDeps } from './deliver.js';

export {
  deliverMessage,
  sendOutgoing,
  type Delivered,
  type DeliveryOutcome,
  type OutgoingMail,
  type FilterActionsRequest,
  type IngestDeps,
  type ReceivedEnvelope,
  type SendFilterActions,
} from './deliver.js';
export { startIngestServer, type IngestServer } from './smtp-server.js';
export { configureParsePool, closeParsePool } from '../mailbox/index.js';

/** SMTP on SMTP_PORT, and LMTP on LMTP_PORT when set; closing drains both (IngestServer.close) and stops the parse and Sieve workers. */
export async function startIngest(
  deps: IngestDeps,
): Promise<{ smtp: IngestServer; lmtp?: IngestServer; close(graceMs?: number): Promise<void> }> {
  const { config } = deps;
  const smtp = await startIngestServer(deps, { port: config.smtpPort, host: config.host });
  const lmtp =
    config.lmtpPort !== undefined
      ? await startIngestServer(deps, { port: config.lmtpPort, host: config.host, lmtp: true })
      : undefined;
  return {
    smtp,
    ...(lmtp ? { lmtp } : {}),
    async close(graceMs?: number) {
      await Promise.all([smtp.close(graceMs), lmtp?.close(graceMs)]);
      await Promise.all([closeParsePool(), closeSievePool()]);
    },
  };
}
