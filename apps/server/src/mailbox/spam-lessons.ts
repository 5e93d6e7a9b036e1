import type { FolderSystem } from '@mailroom/protocol';
import type { Trx } from '../core/db/index.js';
import { enqueueJobs } from '../core/jobs/index.js';

/** The job kind a move into or out of Junk queues: spam/ teaches Rspamd from it (`learnFromMove`). */
export const SPAM_LEARN_JOB = 'spam-learn';

export interface SpamLesson {
  accountId: number;
  messageId: number;
  as: 'spam' | 'ham';
}

/**
 * What a move teaches: into Junk from anywhere else, spam; out of Junk to anywhere but Trash, ham ("Not spam").
 * Queued in the move's transaction, one job per message (keyed by it: moved back before the job ran, the last move
 * is what is learned), so the request never waits for the scorer and a scorer that is down is asked again later.
 */
export async function queueSpamLessons(
  trx: Trx,
  accountId: number,
  destination: FolderSystem | null,
  sources: { system: FolderSystem | null; messageIds: number[] }[],
): Promise<void> {
  const lessons: SpamLesson[] = [];
  for (const source of sources) {
    const as =
      destination === 'junk' && source.system !== 'junk'
        ? 'spam'
        : source.system === 'junk' && destination !== 'junk' && destination !== 'trash'
          ? 'ham'
          : null;
    if (as) for (const messageId of source.messageIds) lessons.push({ accountId, messageId, as });
  }
  await enqueueJobs(
    trx,
    lessons.map((lesson) => ({ kind: SPAM_LEARN_JOB, key: String(lesson.messageId), payload: lesson })),
  );
}
