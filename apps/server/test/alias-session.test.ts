import { describe, expect, it } from 'vitest';
import { Browser, createTestApp } from './_util.js';
import { composeRaw, createAccount } from './_mail.js';
import { grantPasswordAccess } from '../src/addresses/password-access.js';
import { parseMessage, storeMessage, systemFolder } from '../src/mailbox/index.js';

const { app, db, blobs } = await createTestApp();

/**
 * An account with an alias, one message to the alias and one to the main address, and a session signed in
 * by password access to the alias (or, with 'primary', to the account's own primary address).
 */
async function setUp(accessTo: 'alias' | 'primary' = 'alias') {
  const owner = await createAccount(db, 'Owner');
  const alias = await db
    .insertInto('aliases')
    .values({ account_id: owner.id, email: `desk-${owner.id}@mailroom.test` })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  const access = accessTo === 'alias' ? alias.email : owner.email;
  await grantPasswordAccess(db, owner.id, access, 'desk-password');
  const inbox = await systemFolder(db, owner.id, 'inbox');
  const store = async (to: string, subject: string, aliasId: number | null) => {
    const raw = await composeRaw({ from: 'x@example.com', to, subject, text: `${subject} quokka` });
    return (
      await storeMessage(db, blobs, {
        accountId: owner.id,
        folderId: inbox.id,
        raw,
        parsed: await parseMessage(raw),
        aliasId,
      })
    ).message;
  };
  const toAlias = await store(alias.email, 'For the desk', alias.id);
  const toOwner = await store(owner.email, 'Private to the owner', null);
  const desk = new Browser(app);
  expect(
    (
      await desk.request('POST', '/auth/pw/login', {
        json: { email: access, password: 'desk-password' },
      })
    ).statusCode,
  ).toBe(200);
  return { inbox, toAlias, toOwner, desk };
}

describe('an alias-only session acts only on mail to its address', () => {
  it('marks and deletes its own mail', async () => {
    const { inbox, toAlias, desk } = await setUp();
    const marked = await desk.request('POST', '/api/v1/messages/mark', {
      json: { flag: 'seen', folder_messages: [{ folder_id: inbox.id, message_uids: [toAlias.uid] }] },
    });
    expect(marked.statusCode).toBe(200);
    const deleted = await desk.request('POST', '/api/v1/messages/delete', {
      json: { folder_messages: [{ folder_id: inbox.id, message_uids: [toAlias.uid] }] },
    });
    expect(deleted.statusCode).toBe(200);
  });

  it("cannot mark, move or delete the owner's other mail", async () => {
    const { inbox, toOwner, desk } = await setUp();
    const folder_messages = [{ folder_id: inbox.id, message_uids: [toOwner.uid] }];
    const trash = await systemFolder(
      db,
      (
        await db
          .selectFrom('folders')
          .select('account_id')
          .where('id', '=', inbox.id)
          .executeTakeFirstOrThrow()
      ).account_id,
      'trash',
    );
    for (const [url, json] of [
      ['/api/v1/messages/mark', { flag: 'seen', folder_messages }],
      ['/api/v1/messages/move', { destination_id: trash.id, folder_messages }],
      ['/api/v1/messages/delete', { folder_messages }],
    ] as const) {
      const response = await desk.request('POST', url, { json });
      expect(response.statusCode, url).toBe(404);
    }
    const row = await db
      .selectFrom('messages')
      .select(['seen', 'folder_id'])
      .where('id', '=', toOwner.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ seen: false, folder_id: inbox.id });
  });

  it('search finds only mail to its address', async () => {
    const { desk } = await setUp();
    for (const alias_id of [undefined, 0]) {
      const found = await desk.request('POST', '/api/v1/messages/search', {
        json: { text: 'for', alias_id },
      });
      expect(found.json().messages.map((m: { subject: string }) => m.subject)).toEqual(['For the desk']);
      const owner = await desk.request('POST', '/api/v1/messages/search', {
        json: { text: 'private', alias_id },
      });
      expect(owner.json().messages).toEqual([]);
    }
  });

  it('labels, bulk actions and emptying are refused with forbidden', async () => {
    const { inbox, desk } = await setUp();
    const refused: [string, 'GET' | 'POST', unknown][] = [
      ['/api/v1/labels', 'GET', undefined],
      ['/api/v1/labels', 'POST', { label: { name: 'x', search_content: 'y' } }],
      [
        '/api/v1/messages/bulk',
        'POST',
        { request_type: 'get', request_params: {}, request: { folder_id: inbox.id } },
      ],
      ['/api/v1/messages/empty', 'POST', { folder_id: inbox.id }],
    ];
    for (const [url, method, json] of refused) {
      const response = await desk.request(method, url, json === undefined ? {} : { json });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error.meta.i8s).toBe('forbidden');
    }
  });
});

describe('password access to the primary address sees its mail the same way everywhere', () => {
  it('lists, searches and marks mail to the primary address, and nothing sent to an alias', async () => {
    const { inbox, toOwner: toPrimary, toAlias, desk: front } = await setUp('primary');
    const list = await front.request('GET', `/api/v1/messages/folder/${inbox.id}?page=1`);
    expect(list.statusCode).toBe(200);
    expect(list.json().messages.map((m: { uid: number }) => m.uid)).toEqual([toPrimary.uid]);

    const found = await front.request('POST', '/api/v1/messages/search', { json: { text: 'quokka' } });
    expect(found.statusCode).toBe(200);
    expect(found.json().messages.map((m: { uid: number }) => m.uid)).toEqual([toPrimary.uid]);

    const marked = await front.request('POST', '/api/v1/messages/mark', {
      json: { flag: 'flagged', folder_messages: [{ folder_id: inbox.id, message_uids: [toPrimary.uid] }] },
    });
    expect(marked.statusCode).toBe(200);
    expect(marked.json().marked).toEqual([{ folder_id: inbox.id, message_uids: [toPrimary.uid] }]);

    const other = await front.request('POST', '/api/v1/messages/mark', {
      json: { flag: 'flagged', folder_messages: [{ folder_id: inbox.id, message_uids: [toAlias.uid] }] },
    });
    expect(other.statusCode).toBe(404);
    const opened = await front.request('GET', `/api/v1/messages/${inbox.id}/${toAlias.uid}`);
    expect(opened.statusCode).toBe(404);
  });
});
