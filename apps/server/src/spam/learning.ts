import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { BlobStore } from '../core/blobs/index.js';
import type { Db } from '../core/db/index.js';
import { emit, type EventBus } from '../core/events/index.js';
import { startQueueWorker, type JobHandler, type QueueWorker } from '../core/jobs/index.js';
import {
  messageBlobHash,
  oldJunk,
  purgeMessages,
  SPAM_LEARN_JOB,
  type SpamLesson,
} from '../mailbox/index.js';
import { findAccountById } from '../accounts/index.js';
import { learnMessage, type RspamdSettings } from './rspamd.js';

export interface SpamJobsDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  pollMs?: number;
}

/** Messages larger than this are not taught (Rspamd's own limit for learning is about this size). */
const LEARN_MAX_BYTES = 10 * 2 ** 20;
/** Junk purged at most this many messages a pass (a pass an hour; a backlog drains over passes). */
const JUNK_PASS_MAX = 5_000;

/**
 * Teaches Rspamd what members move into and out of Junk (the store's moves queue a `spam-learn` job per message):
 * the message's stored bytes to the controller's `learnspam`/`learnham` for the member's own Bayes statistics
 * (`Deliver-To`: the account's address). Rspamd down: the job is tried again with the queue's back-off. Without
 * Rspamd (no RSPAMD_URL) the jobs end at once: nothing to teach.
 */
export function learnFromMove(deps: SpamJobsDeps, rspamd: RspamdSettings | null): JobHandler {
  return async (job) => {
    if (!rspamd) return;
    const lesson = job.payload as SpamLesson;
    const hash = await messageBlobHash(deps.db, lesson.accountId, lesson.messageId);
    if (!hash) return;
    const account = await findAccountById(deps.db, lesson.accountId);
    if (!account) return;
    const raw = await deps.blobs.get(hash);
    if (raw.length > LEARN_MAX_BYTES) return;
    const outcome = await learnMessage(rspamd, lesson.as, raw, account.email);
    if (outcome !== 'learned')
      deps.log.info(
        { messageId: lesson.messageId, as: lesson.as, outcome },
        'Rspamd did not learn a message',
      );
  };
}

/**
 * Junk's retention (JUNK_RETENTION_DAYS): messages that arrived longer ago are purged, a bounded batch a pass, each
 * account's in its own transaction with its events.
 */
export async function purgeOldJunk(deps: SpamJobsDeps): Promise<number> {
  const before = new Date(Date.now() - deps.config.inbound.junkRetentionDays * 86_400_000);
  let purged = 0;
  for (const { accountId, folderMessages } of await oldJunk(deps.db, before, JUNK_PASS_MAX)) {
    const outcome = await purgeMessages(deps.db, accountId, { folder_messages: [folderMessages] });
    void emit(deps.db, deps, accountId, outcome.events);
    purged += folderMessages.message_uids.length;
  }
  return purged;
}

/** The spam area's jobs: learning from moves, and Junk's retention (hourly, once across every process). */
export function startSpamJobs(deps: SpamJobsDeps): QueueWorker {
  return startQueueWorker({
    db: deps.db,
    name: 'spam',
    log: deps.log,
    pollMs: deps.pollMs ?? 2_000,
    handlers: { [SPAM_LEARN_JOB]: learnFromMove(deps, deps.config.inbound.rspamd) },
    recurring: [
      {
        key: 'junk-retention',
        intervalMs: 3600_000,
        run: async () => {
          const purged = await purgeOldJunk(deps);
          if (purged) deps.log.info({ purged }, 'old Junk removed');
        },
      },
    ],
  });
}
