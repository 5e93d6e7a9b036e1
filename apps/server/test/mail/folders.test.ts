import { describe, expect, it } from 'vitest';
import type { Folder } from '@mailroom/protocol';
import type { MailEvent } from '@mailroom/protocol';
import { createTestApp, signUpAndSignIn, type Browser } from '../_util.js';
import { createAccount, deliverTestMessage } from '../_mail.js';
import { createFolder, deleteFolder } from '../../src/mailbox/index.js';
import { apiRequest } from '../_client.js';

const { app, db, blobs, events } = await createTestApp();

async function signedInUser(name = 'Ann Lee') {
  const { browser } = await signUpAndSignIn(app, name);
  const account = (await apiRequest(browser, 'account')).json() as { email: string };
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('email', '=', account.email)
    .executeTakeFirstOrThrow();
  return { browser, accountId: row.id, email: account.email };
}

const ann = await signedInUser('Ann Lee');
const bob = await signedInUser('Bo Chen');

async function tree(browser: Browser): Promise<Folder[]> {
  return ((await apiRequest(browser, 'folders')).json() as { folders: Folder[] }).folders;
}
function flat(folders: Folder[]): Folder[] {
  return folders.flatMap((f) => [f, ...flat(f.subfolders)]);
}
async function byName(browser: Browser, name: string) {
  return flat(await tree(browser)).find((f) => f.name === name);
}
async function create(browser: Browser, name: string, parent_id: number | null = null) {
  return apiRequest(browser, 'createFolder', { body: { folder: { parent_id, name } } });
}
const code = (r: { json: () => unknown }) =>
  (r.json() as { error: { meta: { i8s: string } } }).error.meta.i8s;

describe('creating folders', () => {
  it('a top-level folder is a dotted path under INBOX and shows up in the tree', async () => {
    const response = await create(ann.browser, '  Projects ');
    expect(response.statusCode).toBe(200);
    const { folder } = response.json() as { folder: Folder };
    expect(folder).toMatchObject({
      name: 'INBOX.Projects',
      system: null,
      unread: 0,
      total: 0,
      subfolders: [],
    });
    const child = (await create(ann.browser, '2026', folder.id)).json() as { folder: Folder };
    expect(child.folder.name).toBe('INBOX.Projects.2026');
    const projects = await byName(ann.browser, 'INBOX.Projects');
    expect(projects?.subfolders.map((f) => f.name)).toEqual(['INBOX.Projects.2026']);
  });

  it('the Inbox as parent means the top level', async () => {
    const inbox = await byName(ann.browser, 'INBOX');
    const { folder } = (await create(ann.browser, 'Receipts', inbox!.id)).json() as { folder: Folder };
    expect(folder.name).toBe('INBOX.Receipts');
  });

  it('refuses empty names, dots, slashes, control characters and overlong names', async () => {
    expect(code(await create(ann.browser, '   '))).toBe('name_not_indicated');
    for (const bad of [
      'a.b',
      'a/b',
      'a\\b',
      'tab\there',
      'nul\u0000',
      'x'.repeat(101),
      '%',
      '*',
      'evil\u202etxt',
    ]) {
      const response = await create(ann.browser, bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(code(response)).toBe('folder_name_invalid');
    }
  });

  it('refuses a name that exists already, whatever its case, and the collectors namespace', async () => {
    await create(ann.browser, 'Travel');
    expect(code(await create(ann.browser, 'travel'))).toBe('folder_already_exist');
    await create(ann.browser, 'Счета');
    expect(code(await create(ann.browser, 'СЧЕТА'))).toBe('folder_already_exist');
    expect(code(await create(ann.browser, 'sent'))).toBe('folder_already_exist');
    expect(code(await create(ann.browser, 'import'))).toBe('forbidden');
  });

  it('twenty parallel creations of one name make one folder; the rest are told it exists', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(ann.browser, i % 2 ? 'Racing' : 'racing')),
    );
    const codes = responses.map((r) => (r.statusCode === 200 ? 'ok' : code(r)));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(1);
    expect(codes.filter((c) => c !== 'ok').every((c) => c === 'folder_already_exist')).toBe(true);
    const named = flat(await tree(ann.browser)).filter((f) => f.name.toLowerCase() === 'inbox.racing');
    expect(named).toHaveLength(1);
  });

  it("refuses another account's folder as parent", async () => {
    const { folder } = (await create(bob.browser, 'BobOnly')).json() as { folder: Folder };
    const response = await create(ann.browser, 'Sneaky', folder.id);
    expect(code(response)).toBe('folder_parent_wrong');
    expect(await byName(ann.browser, 'INBOX.BobOnly.Sneaky')).toBeUndefined();
    expect(await byName(bob.browser, 'INBOX.BobOnly.Sneaky')).toBeUndefined();
  });

  it('announces the change on the bus after it is committed', async () => {
    const seen: MailEvent[] = [];
    const stop = events.subscribe(ann.accountId, (e) => seen.push(e));
    const bobSeen: MailEvent[] = [];
    const stopBob = events.subscribe(bob.accountId, (e) => bobSeen.push(e));
    await create(ann.browser, 'Announced');
    stop();
    stopBob();
    expect(seen).toEqual([{ event: 'updateMailboxList' }]);
    expect(bobSeen).toEqual([]);
  });
});

describe('renaming and moving folders', () => {
  it('renaming keeps the id, UIDVALIDITY and UIDs, and the subfolders follow', async () => {
    const parent = ((await create(ann.browser, 'Old')).json() as { folder: Folder }).folder;
    const child = ((await create(ann.browser, 'Child', parent.id)).json() as { folder: Folder }).folder;
    const stored = await deliverTestMessage(
      db,
      blobs,
      ann.accountId,
      { from: 'a@example.com', subject: 'Kept', text: 'x' },
      { folderId: child.id },
    );
    const before = await db
      .selectFrom('folders')
      .selectAll()
      .where('id', '=', child.id)
      .executeTakeFirstOrThrow();

    const response = await apiRequest(ann.browser, 'updateFolder', {
      params: { id: parent.id },
      body: { folder: { name: 'New' } },
    });
    expect(response.statusCode).toBe(200);
    const renamed = (response.json() as { folder: Folder }).folder;
    expect(renamed).toMatchObject({ id: parent.id, name: 'INBOX.New' });
    expect(renamed.subfolders).toMatchObject([{ id: child.id, name: 'INBOX.New.Child', total: 1 }]);

    const after = await db
      .selectFrom('folders')
      .selectAll()
      .where('id', '=', child.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ uidvalidity: before.uidvalidity, uidnext: before.uidnext });
    const next = await deliverTestMessage(
      db,
      blobs,
      ann.accountId,
      { from: 'a@example.com', subject: 'After', text: 'y' },
      { folderId: child.id },
    );
    expect(next.uid).toBe(stored.uid + 1);
  });

  it('moves a folder under another one, and back to the top', async () => {
    const a = ((await create(ann.browser, 'MoveA')).json() as { folder: Folder }).folder;
    const b = ((await create(ann.browser, 'MoveB')).json() as { folder: Folder }).folder;
    await create(ann.browser, 'Leaf', a.id);
    const moved = await apiRequest(ann.browser, 'updateFolder', {
      params: { id: a.id },
      body: { folder: { parent_id: b.id } },
    });
    expect((moved.json() as { folder: Folder }).folder.name).toBe('INBOX.MoveB.MoveA');
    expect(await byName(ann.browser, 'INBOX.MoveB.MoveA.Leaf')).toBeDefined();
    const back = await apiRequest(ann.browser, 'updateFolder', {
      params: { id: a.id },
      body: { folder: { parent_id: null, name: 'Top' } },
    });
    expect((back.json() as { folder: Folder }).folder.name).toBe('INBOX.Top');
    expect(await byName(ann.browser, 'INBOX.Top.Leaf')).toBeDefined();
  });

  it('renames folders whose names are outside the basic plane (emoji) with their subfolders', async () => {
    const parent = ((await create(ann.browser, '📁 Архив')).json() as { folder: Folder }).folder;
    await create(ann.browser, '2025 🎉', parent.id);
    const response = await apiRequest(ann.browser, 'updateFolder', {
      params: { id: parent.id },
      body: { folder: { name: '🗂️ Old' } },
    });
    expect((response.json() as { folder: Folder }).folder.subfolders.map((f) => f.name)).toEqual([
      'INBOX.🗂️ Old.2025 🎉',
    ]);
  });

  it('refuses a move into itself or its own subfolder', async () => {
    const a = ((await create(ann.browser, 'Cycle')).json() as { folder: Folder }).folder;
    const inner = ((await create(ann.browser, 'Inner', a.id)).json() as { folder: Folder }).folder;
    for (const parent_id of [a.id, inner.id]) {
      const response = await apiRequest(ann.browser, 'updateFolder', {
        params: { id: a.id },
        body: { folder: { parent_id } },
      });
      expect(code(response)).toBe('folder_parent_wrong');
    }
    expect(await byName(ann.browser, 'INBOX.Cycle.Inner')).toBeDefined();
  });

  it('refuses a rename onto an existing name, but a change of case alone is fine', async () => {
    const a = ((await create(ann.browser, 'Alpha')).json() as { folder: Folder }).folder;
    await create(ann.browser, 'Beta');
    const clash = await apiRequest(ann.browser, 'updateFolder', {
      params: { id: a.id },
      body: { folder: { name: 'BETA' } },
    });
    expect(code(clash)).toBe('folder_already_exist');
    const recase = await apiRequest(ann.browser, 'updateFolder', {
      params: { id: a.id },
      body: { folder: { name: 'ALPHA' } },
    });
    expect((recase.json() as { folder: Folder }).folder.name).toBe('INBOX.ALPHA');
  });

  it('system folders cannot be renamed, moved or deleted', async () => {
    for (const f of (await tree(ann.browser)).filter((x) => x.system)) {
      const rename = await apiRequest(ann.browser, 'updateFolder', {
        params: { id: f.id },
        body: { folder: { name: 'Mine' } },
      });
      expect(code(rename), f.name).toBe('forbidden');
      const del = await apiRequest(ann.browser, 'deleteFolder', { params: { id: f.id } });
      expect(code(del), f.name).toBe('forbidden');
    }
    expect((await tree(ann.browser)).filter((x) => x.system)).toHaveLength(7);
  });

  it("another account's folder is not found, and stays as it was", async () => {
    const { folder } = (await create(bob.browser, 'Private')).json() as { folder: Folder };
    const rename = await apiRequest(ann.browser, 'updateFolder', {
      params: { id: folder.id },
      body: { folder: { name: 'Taken' } },
    });
    expect(rename.statusCode).toBe(404);
    expect(code(rename)).toBe('entity_not_found');
    const del = await apiRequest(ann.browser, 'deleteFolder', { params: { id: folder.id } });
    expect(code(del)).toBe('entity_not_found');
    expect(await byName(bob.browser, 'INBOX.Private')).toBeDefined();
  });
});

describe('deleting folders', () => {
  it('refuses while it has subfolders', async () => {
    const a = ((await create(ann.browser, 'HasKids')).json() as { folder: Folder }).folder;
    await create(ann.browser, 'Kid', a.id);
    const response = await apiRequest(ann.browser, 'deleteFolder', { params: { id: a.id } });
    expect(response.statusCode).toBe(400);
    expect(code(response)).toBe('folder_children_exist');
  });

  it('deletes its messages and gives their size back to the quota', async () => {
    const quota = async () =>
      ((await apiRequest(ann.browser, 'account')).json() as { quota: { size: number } }).quota.size;
    const folder = ((await create(ann.browser, 'Doomed')).json() as { folder: Folder }).folder;
    const before = await quota();
    for (let i = 0; i < 3; i++)
      await deliverTestMessage(
        db,
        blobs,
        ann.accountId,
        { from: 'a@example.com', subject: `n${i}`, text: 'z'.repeat(3000) },
        { folderId: folder.id },
      );
    expect(await quota()).toBeGreaterThan(before);
    const response = await apiRequest(ann.browser, 'deleteFolder', { params: { id: folder.id } });
    expect(response.json()).toEqual({ ok: true });
    expect(await quota()).toBe(before);
    const left = await db.selectFrom('messages').select('id').where('folder_id', '=', folder.id).execute();
    expect(left).toEqual([]);
    expect(await byName(ann.browser, 'INBOX.Doomed')).toBeUndefined();
  });

  it('deleting while mail is being stored into the folder keeps the quota equal to what is stored', async () => {
    const account = await createAccount(db);
    const folderId = await createFolder(db, account.id, { parent_id: null, name: 'Busy' });
    const deliveries = Array.from({ length: 12 }, (_, i) =>
      deliverTestMessage(
        db,
        blobs,
        account.id,
        { from: 'a@example.com', subject: `b${i}`, text: 'q'.repeat(2000 + i) },
        { folderId },
      ).then(
        () => 'stored',
        (err: { code?: string }) => err.code,
      ),
    );
    await new Promise((r) => setTimeout(r, 5));
    await deleteFolder(db, account.id, folderId);
    const outcomes = await Promise.all(deliveries);
    expect(outcomes.every((o) => o === 'stored' || o === 'request_folder_not_found')).toBe(true);
    const { used } = await db
      .selectFrom('accounts')
      .select('quota_used_bytes as used')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    const { sum } = await db
      .selectFrom('messages')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('sum'))
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(Number(used)).toBe(Number(sum));
    expect(Number(sum)).toBe(0);
  });

  it('a folder re-created under a deleted name gets a new UIDVALIDITY', async () => {
    const first = ((await create(ann.browser, 'Again')).json() as { folder: Folder }).folder;
    const v1 = await db
      .selectFrom('folders')
      .select('uidvalidity')
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    await apiRequest(ann.browser, 'deleteFolder', { params: { id: first.id } });
    const second = ((await create(ann.browser, 'Again')).json() as { folder: Folder }).folder;
    const v2 = await db
      .selectFrom('folders')
      .select('uidvalidity')
      .where('id', '=', second.id)
      .executeTakeFirstOrThrow();
    expect(v2.uidvalidity).toBeGreaterThan(v1.uidvalidity);
  });

  it('a folder id that is not a number is a 400, never a 500', async () => {
    for (const id of ['abc', '1e300', '-1', '0', '99999999999999999999']) {
      const response = await apiRequest(ann.browser, 'deleteFolder', { params: { id } });
      expect(response.statusCode, id).toBe(400);
    }
  });
});
