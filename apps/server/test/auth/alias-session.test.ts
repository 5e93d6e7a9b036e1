import { describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { Browser, createTestApp } from '../_util.js';
import { composeRaw, createAccount } from '../_mail.js';
import { compose, upload } from '../_sending.js';
import { LiveClient, listenWs } from '../_ws.js';
import { grantPasswordAccess } from '../../src/addresses/password-access.js';
import { createSession } from '../../src/auth/index.js';
import { parseMessage, storeMessage, systemFolder } from '../../src/mailbox/index.js';
import { apiRequest, apiPath } from '../_client.js';

const { app, db, blobs, events } = await createTestApp();
const wsUrl = await listenWs(app);

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
  const ownerBrowser = new Browser(app);
  const { token } = await createSession(db, { accountId: owner.id, aliasEmail: null }, 3600_000);
  ownerBrowser.cookies.set('mr_sid', token);
  const desk = new Browser(app);
  expect(
    (await apiRequest(desk, 'passwordSignIn', { body: { email: access, password: 'desk-password' } }))
      .statusCode,
  ).toBe(200);
  return { owner, alias, access, inbox, store, toAlias, toOwner, desk, ownerBrowser };
}

describe('an alias-only session acts only on mail to its address', () => {
  it('marks and deletes its own mail', async () => {
    const { inbox, toAlias, desk } = await setUp();
    const marked = await apiRequest(desk, 'markMessages', {
      body: { flag: 'seen', folder_messages: [{ folder_id: inbox.id, message_uids: [toAlias.uid] }] },
    });
    expect(marked.statusCode).toBe(200);
    const deleted = await apiRequest(desk, 'deleteMessages', {
      body: { folder_messages: [{ folder_id: inbox.id, message_uids: [toAlias.uid] }] },
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
      [apiPath('markMessages'), { flag: 'seen', folder_messages }],
      [apiPath('moveMessages'), { destination_id: trash.id, folder_messages }],
      [apiPath('deleteMessages'), { folder_messages }],
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
      const found = await apiRequest(desk, 'searchMessages', { body: { text: 'for', alias_id } });
      expect(found.json().messages.map((m: { subject: string }) => m.subject)).toEqual(['For the desk']);
      const owner = await apiRequest(desk, 'searchMessages', { body: { text: 'private', alias_id } });
      expect(owner.json().messages).toEqual([]);
    }
  });

  it('labels, bulk actions and emptying are refused with forbidden', async () => {
    const { inbox, desk } = await setUp();
    const refused: [string, 'GET' | 'POST', unknown][] = [
      [apiPath('labels'), 'GET', undefined],
      [apiPath('labels'), 'POST', { label: { name: 'x', search_content: 'y' } }],
      [
        apiPath('bulkAction'),
        'POST',
        { request_type: 'get', request_params: {}, request: { folder_id: inbox.id } },
      ],
      [apiPath('emptyFolder'), 'POST', { folder_id: inbox.id }],
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
    const list = await apiRequest(front, 'folderMessages', {
      params: { folder_id: inbox.id },
      query: { page: 1 },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().messages.map((m: { uid: number }) => m.uid)).toEqual([toPrimary.uid]);

    const found = await apiRequest(front, 'searchMessages', { body: { text: 'quokka' } });
    expect(found.statusCode).toBe(200);
    expect(found.json().messages.map((m: { uid: number }) => m.uid)).toEqual([toPrimary.uid]);

    const marked = await apiRequest(front, 'markMessages', {
      body: { flag: 'flagged', folder_messages: [{ folder_id: inbox.id, message_uids: [toPrimary.uid] }] },
    });
    expect(marked.statusCode).toBe(200);
    expect(marked.json().marked).toEqual([{ folder_id: inbox.id, message_uids: [toPrimary.uid] }]);

    const other = await apiRequest(front, 'markMessages', {
      body: { flag: 'flagged', folder_messages: [{ folder_id: inbox.id, message_uids: [toAlias.uid] }] },
    });
    expect(other.statusCode).toBe(404);
    const opened = await apiRequest(front, 'message', { params: { folder_id: inbox.id, uid: toAlias.uid } });
    expect(opened.statusCode).toBe(404);
  });
});

describe("an alias-only session never reaches the owner's own things", () => {
  it("cannot attach the owner's pending upload to its draft by id", async () => {
    const { owner, access, desk, ownerBrowser } = await setUp();
    const owners = await upload(app, ownerBrowser, 'payslip.pdf', Buffer.from('%PDF owner only'));
    expect(owners.status).toBe(200);
    const own = await upload(app, desk, 'desk.pdf', Buffer.from('%PDF the desk'));
    expect(own.status).toBe(200);
    const taken = await apiRequest(desk, 'saveDraft', {
      body: compose(access, ['x@example.com'], { attachments: [owners.body.attachment.id] }),
    });
    expect(taken.statusCode, taken.body).toBe(404);
    expect(taken.json().error.meta.i8s).toBe('entity_not_found');
    const saved = await apiRequest(desk, 'saveDraft', {
      body: compose(access, ['x@example.com'], { attachments: [own.body.attachment.id] }),
    });
    expect(saved.statusCode).toBe(200);
    // The other way round too: an upload is its session principal's, not the whole account's.
    const ownerTakes = await apiRequest(ownerBrowser, 'saveDraft', {
      body: compose(owner.email, ['x@example.com'], { attachments: [own.body.attachment.id] }),
    });
    expect(ownerTakes.statusCode).toBe(404);
  });

  it("cannot change the owner's settings", async () => {
    const { owner, desk } = await setUp();
    const before = await apiRequest(desk, 'account');
    const changed = await apiRequest(desk, 'changeSettings', { body: { per_page: 5 } });
    expect(changed.statusCode).toBe(403);
    expect(changed.json().error.meta.i8s).toBe('forbidden');
    const row = await db
      .selectFrom('accounts')
      .select('settings')
      .where('id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(row.settings.per_page).toBe(before.json().settings.per_page);
  });

  it("lists no folder of the owner's that holds none of its mail", async () => {
    const { owner, alias, desk, ownerBrowser } = await setUp();
    for (const name of ['Divorce lawyer', 'Desk archive']) {
      const made = await apiRequest(ownerBrowser, 'createFolder', {
        body: { folder: { parent_id: null, name } },
      });
      expect(made.statusCode, name).toBe(200);
    }
    const archive = await db
      .selectFrom('folders')
      .select('id')
      .where('account_id', '=', owner.id)
      .where('name', 'like', '%Desk archive')
      .executeTakeFirstOrThrow();
    const raw = await composeRaw({ from: 'x@example.com', to: alias.email, subject: 'filed', text: 'x' });
    await storeMessage(db, blobs, {
      accountId: owner.id,
      folderId: archive.id,
      raw,
      parsed: await parseMessage(raw),
      aliasId: alias.id,
    });
    type Node = { name: string; system: string | null; subfolders: Node[] };
    const names = (folders: Node[]): string[] => folders.flatMap((f) => [f.name, ...names(f.subfolders)]);
    const seen = names((await apiRequest(desk, 'folders')).json().folders);
    expect(seen.some((n) => n.includes('Divorce lawyer'))).toBe(false);
    expect(seen.some((n) => n.includes('Desk archive'))).toBe(true);
    expect(seen).toContain('INBOX');
    const ownerSees = names((await apiRequest(ownerBrowser, 'folders')).json().folders);
    expect(ownerSees.some((n) => n.includes('Divorce lawyer'))).toBe(true);
  });

  it("its websocket hears nothing of the owner's mail to other addresses", async () => {
    const { inbox, alias, owner, desk, store } = await setUp();
    const live = await LiveClient.open(wsUrl, { token: desk.cookies.get('mr_sid')! });
    await live.greet();
    const publishStored = async (to: string, subject: string, aliasId: number | null) => {
      const message = await store(to, subject, aliasId);
      const counts = await db
        .selectFrom('folders')
        .select(['unread_count', 'total_count'])
        .where('id', '=', inbox.id)
        .executeTakeFirstOrThrow();
      await events.publish(owner.id, [
        { event: 'new', folder_id: inbox.id, uids: [message.uid] },
        {
          event: 'updateMailbox',
          folder_id: inbox.id,
          unseen: counts.unread_count,
          total: counts.total_count,
        },
      ]);
      return message;
    };
    await publishStored(owner.email, 'Private again', null);
    const forDesk = await publishStored(alias.email, 'For the desk again', alias.id);
    const got = await live.events(1, 2);
    // Two messages to the desk's address in the Inbox (setUp's and this one), both unread.
    expect(got).toEqual<MailEvent[]>([
      { event: 'new', folder_id: inbox.id, uids: [forDesk.uid] },
      { event: 'updateMailbox', folder_id: inbox.id, unseen: 2, total: 2 },
    ]);
  });
});

describe('SPEC §6: what an alias-only user is kept from, server side', () => {
  it('creating folders or labels, contacts and groups, settings, profiles, filters and aliases: forbidden', async () => {
    const { alias, desk } = await setUp();
    const refused: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown][] = [
      ['POST', apiPath('folders'), { folder: { parent_id: null, name: 'Desk folder' } }],
      ['POST', apiPath('labels'), { label: { name: 'Desk label', search_content: 'x' } }],
      ['GET', apiPath('contacts'), undefined],
      ['POST', apiPath('contacts'), { name: 'Someone', emails: ['someone@example.com'] }],
      ['GET', apiPath('groups'), undefined],
      ['POST', apiPath('groups'), { name: 'Desk group' }],
      ['GET', apiPath('exportContacts'), undefined],
      ['GET', apiPath('settings'), undefined],
      ['POST', apiPath('settings'), { per_page: 5 }],
      ['POST', apiPath('createProfile'), { name: 'Desk', email: alias.email }],
      ['GET', apiPath('filters'), undefined],
      ['POST', apiPath('filters'), { script: '' }],
      ['GET', apiPath('aliases'), undefined],
      ['POST', apiPath('aliases'), { name: 'deskcopy' }],
      ['DELETE', apiPath('deleteAlias', { params: { id: alias.id } }), undefined],
      ['PUT', apiPath('updateAliasAccess'), { email: alias.email, password: null }],
    ];
    for (const [method, url, json] of refused) {
      const response = await desk.request(method, url, json === undefined ? {} : { json });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      expect(response.json().error.meta.i8s, `${method} ${url}`).toBe('forbidden');
    }
    // Nothing was made or changed on the way.
    const owner = await db
      .selectFrom('aliases')
      .select(['account_id', 'deleted_at'])
      .where('id', '=', alias.id)
      .executeTakeFirstOrThrow();
    expect(owner.deleted_at).toBeNull();
    const folders = await db
      .selectFrom('folders')
      .select('name')
      .where('account_id', '=', owner.account_id)
      .where('name', 'like', '%Desk folder%')
      .execute();
    expect(folders).toEqual([]);
  });

  it('sees no labels, no member ID and no other address of the owner, and gets no contact suggestions', async () => {
    const { alias, desk, ownerBrowser } = await setUp();
    await apiRequest(ownerBrowser, 'createLabel', {
      body: { label: { name: 'Owner label', search_content: 'x' } },
    });
    expect((await apiRequest(desk, 'labels')).statusCode).toBe(403);
    const user = (await apiRequest(desk, 'user')).json()[0].user_info;
    expect(user).toMatchObject({ email: alias.email, member_id: null, info: { alias: alias.email } });
    const account = (await apiRequest(desk, 'account')).json();
    expect(account.email).toBe(alias.email);
    expect(account.aliases).toEqual([{ id: alias.id, email: alias.email }]);
    const made = await apiRequest(ownerBrowser, 'createContact', {
      body: { name: 'Alicia', emails: ['alicia@example.com'] },
    });
    expect(made.statusCode).toBe(200);
    const ownerGets = await apiRequest(ownerBrowser, 'suggestContacts', { query: { q: 'alic' } });
    expect(JSON.stringify(ownerGets.json())).toContain('alicia@example.com');
    const suggested = await apiRequest(desk, 'suggestContacts', { query: { q: 'alic' } });
    expect(suggested.statusCode).toBe(200);
    expect(JSON.stringify(suggested.json())).not.toContain('alicia');
  });

  it('once its alias is deleted, a session it still held sees nothing', async () => {
    const { alias, inbox, desk } = await setUp();
    // The alias goes without the route (so the session is not ended): the scope alone must hold.
    await db.updateTable('aliases').set({ deleted_at: new Date() }).where('id', '=', alias.id).execute();
    const list = await apiRequest(desk, 'folderMessages', {
      params: { folder_id: inbox.id },
      query: { page: 1 },
    });
    expect(list.json().messages ?? []).toEqual([]);
  });
});
