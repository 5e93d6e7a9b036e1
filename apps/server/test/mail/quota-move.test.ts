import { describe, expect, it } from 'vitest';
import { createTestApp, signUpAndSignIn } from '../_util.js';
import { deliverTestMessage } from '../_mail.js';
import { apiRequest } from '../_client.js';

const { app, db, blobs } = await createTestApp();

describe('quota', () => {
  it('moving messages to another folder and back leaves the quota unchanged', async () => {
    const { browser, memberId } = await signUpAndSignIn(app);
    const account = await db
      .selectFrom('accounts')
      .select(['id', 'email'])
      .where('member_id', '=', memberId)
      .executeTakeFirstOrThrow();
    const stored = [];
    for (let i = 0; i < 5; i++) {
      stored.push(
        await deliverTestMessage(db, blobs, account.id, {
          from: 'a@example.com',
          to: account.email,
          subject: `m${i}`,
          text: 'x'.repeat(2000),
        }),
      );
    }
    const used = async () => (await apiRequest(browser, 'account')).json().quota.size;
    const before = await used();
    expect(before).toBeGreaterThan(0);
    const created = await apiRequest(browser, 'createFolder', {
      body: { folder: { parent_id: null, name: 'Archive' } },
    });
    const archive = created.json().folder.id;
    const inbox = stored[0]!.folderId;
    await apiRequest(browser, 'moveMessages', {
      body: {
        destination_id: archive,
        folder_messages: [{ folder_id: inbox, message_uids: stored.map((m) => m.uid) }],
      },
    });
    expect(await used()).toBe(before);
    await apiRequest(browser, 'bulkAction', {
      body: {
        request_type: 'move',
        request_params: { destination_id: inbox },
        request: { folder_id: archive },
      },
    });
    expect(await used()).toBe(before);
  });
});
