import type { MailEvent } from '@mailroom/protocol';
import { describe, expect, it } from 'vitest';
import { transact } from '../../src/core/db/index.js';
import { emit, InProcessEventBus } from '../../src/core/events/index.js';
import { createTestDb } from '../_util.js';

const db = await createTestDb();

function sink() {
  const events = new InProcessEventBus();
  const heard: MailEvent[] = [];
  const errors: object[] = [];
  events.subscribe(7, (event) => heard.push(event));
  return { events, heard, errors, log: { error: (obj: object) => errors.push(obj) } };
}

const counted: MailEvent = { event: 'updateAccount', part: 'aliases' };

describe('events ride the transaction', () => {
  it('a change’s events are heard once it has committed, not before', async () => {
    const s = sink();
    let heardInside = -1;
    await transact(db, async (trx) => {
      await emit(trx, s, 7, [counted]);
      await trx.selectFrom('accounts').select('id').limit(1).execute();
      heardInside = s.heard.length;
    });
    expect(heardInside).toBe(0);
    expect(s.heard).toEqual([counted]);
  });

  it('a change that rolls back tells nobody', async () => {
    const s = sink();
    await expect(
      transact(db, async (trx) => {
        await emit(trx, s, 7, [counted]);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(s.heard).toEqual([]);
  });

  it('events of a nested call wait for the outermost transaction', async () => {
    const s = sink();
    let afterInner = -1;
    await transact(db, async (trx) => {
      await transact(trx, (inner) => emit(inner, s, 7, [counted]));
      afterInner = s.heard.length;
    });
    expect(afterInner).toBe(0);
    expect(s.heard).toHaveLength(1);
  });

  it('outside a transaction they go at once; a bus that fails is logged and fails nothing', async () => {
    const s = sink();
    await emit(db, s, 7, [counted]);
    expect(s.heard).toEqual([counted]);
    const broken = {
      events: { publish: () => Promise.reject(new Error('bus down')) } as unknown as InProcessEventBus,
      log: s.log,
    };
    await transact(db, (trx) => emit(trx, broken, 7, [counted]));
    expect(s.errors).toHaveLength(1);
  });
});
