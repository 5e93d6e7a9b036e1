import type { Db } from '../core/db/index.js';

/**
 * Deliveries that reach their store at the same time share one transaction, so one commit (one WAL write and
 * sync, PGlite's or PostgreSQL's) stands for several messages: a store costs a commit of its own only when it is
 * alone. At most IN_FLIGHT groups run at once (on PGlite one runs its statements while the other's commit is being
 * synced); deliveries arriving meanwhile gather into the next group, at most MAX_GROUP of them. A group's callers
 * hear of their stores only after its commit: nothing is published or answered before the messages are durable.
 *
 * One store that fails (a full mailbox, a folder gone, any error) must not take the others with it, nor leave half
 * of its own work committed with theirs: the group is rolled back, the failed store runs again on its own (as it
 * would have without the group), the stores before it again together, and those after it join the next group.
 */
const MAX_GROUP = 16;
const IN_FLIGHT = 2;

interface Job {
  store: (db: Db) => Promise<unknown>;
  /** The first account the store locks: a group runs its stores in this order, as every writer locks accounts. */
  order: number;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Thrown inside a group's transaction to roll it back after a store failed. */
class GroupFailed extends Error {}

class CommitGroups {
  private waiting: Job[] = [];
  private running = 0;

  constructor(private readonly db: Db) {}

  run<T>(store: (db: Db) => Promise<T>, order: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ store, order, resolve: resolve as (value: unknown) => void, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running >= IN_FLIGHT || !this.waiting.length) return;
    const jobs = this.waiting.splice(0, MAX_GROUP).sort((a, b) => a.order - b.order);
    this.running++;
    void (jobs.length === 1 ? this.alone(jobs[0]!) : this.together(jobs)).finally(() => {
      this.running--;
      this.next();
    });
  }

  private async alone(job: Job): Promise<void> {
    await job.store(this.db).then(job.resolve, job.reject);
  }

  private async together(jobs: Job[]): Promise<void> {
    let failedAt: number | undefined;
    let results: unknown[];
    try {
      results = await this.db.transaction().execute(async (trx) => {
        const done: unknown[] = [];
        for (const [i, job] of jobs.entries()) {
          try {
            done.push(await job.store(trx));
          } catch {
            failedAt = i;
            throw new GroupFailed();
          }
        }
        return done;
      });
    } catch {
      // Nothing of the group was kept. The stores before the one that failed go again together, that one alone, and
      // those after it wait for the next group; when the commit itself failed, each goes again alone.
      if (failedAt === undefined) {
        await Promise.all(jobs.map((job) => this.alone(job)));
        return;
      }
      this.waiting.unshift(...jobs.slice(failedAt + 1));
      const before = jobs.slice(0, failedAt);
      await Promise.all([
        this.alone(jobs[failedAt]!),
        before.length > 1 ? this.together(before) : before.length ? this.alone(before[0]!) : undefined,
      ]);
      return;
    }
    jobs.forEach((job, i) => job.resolve(results[i]));
  }
}

const groups = new WeakMap<Db, CommitGroups>();

/**
 * Runs `store` (writes to `db`, or to the transaction it is handed) in a transaction shared with the stores other
 * deliveries run at the same time, or alone; resolves once its writes are committed. `store` may run twice (in a
 * group that failed, then alone), so it must keep nothing but what it writes and returns. `accountId`: the first
 * (lowest) account it locks, so the stores of a group lock accounts in id order as other writers do.
 */
export function storeInGroup<T>(db: Db, accountId: number, store: (db: Db) => Promise<T>): Promise<T> {
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new CommitGroups(db)));
  return group.run(store, accountId);
}
