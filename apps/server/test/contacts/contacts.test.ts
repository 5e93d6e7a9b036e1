import { beforeAll, describe, expect, it } from 'vitest';
import type { Contact, MailEvent } from '@mailroom/protocol';
import { sql } from 'kysely';
import { asMigrationDb, Browser, createTestApp, createTestDb } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { createAccount, deliverTestMessage } from '../_mail.js';
import { compose } from '../_sending.js';
import { grantPasswordAccess } from '../../src/addresses/password-access.js';
import { up as contactsMigration } from '../../src/core/db/migrations/019-contacts.js';
import { systemFolder } from '../../src/mailbox/index.js';
import { api, apiCall, apiRequest, apiPath, type RouteCall } from '../_client.js';

const ctx = await createTestApp();
const { db } = ctx;
let ann: MailUser;
let bob: MailUser;

beforeAll(async () => {
  ann = await mailUser(ctx, 'Ann Contacts');
  bob = await mailUser(ctx, 'Bob Contacts');
});

const code = (r: { body: { error?: { meta: { i8s: string } } } }) => r.body.error?.meta.i8s;

async function newUser(name: string) {
  return mailUser(ctx, name);
}

async function addContact(user: MailUser, input: Record<string, unknown>): Promise<Contact> {
  const { status, body } = await api(user.browser, 'createContact', { body: input });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.contact as Contact;
}

/** A session signed in by password access to the user's own address: held to one address (SPEC §6). */
async function heldToOneAddress(user: MailUser) {
  await grantPasswordAccess(db, user.accountId, user.email, 'desk-password');
  const desk = new Browser(ctx.app);
  const login = await apiRequest(desk, 'passwordSignIn', {
    body: { email: user.email, password: 'desk-password' },
  });
  expect(login.statusCode).toBe(200);
  return desk;
}

/** The updateAccount events the account's subscribers get while `fn` runs. */
async function eventsDuring(user: MailUser, fn: () => Promise<unknown>): Promise<MailEvent[]> {
  const seen: MailEvent[] = [];
  const stop = ctx.events.subscribe(user.accountId, (e) => seen.push(e));
  try {
    await fn();
  } finally {
    stop();
  }
  return seen;
}

describe('contacts: create, read, change, delete', () => {
  it('a new contact comes back with its primary address first, trimmed, and reads back the same', async () => {
    const contact = await addContact(ann, {
      name: '  Anna ',
      surname: ' Petrova',
      emails: ['a.petrova@work.example', 'Anna.Petrova@Example.com'],
      email: 'Anna.Petrova@Example.com',
      phone: '+7 912 345-67-89',
      birthday: '1990-04-12',
      notes: 'Met in Moscow',
    });
    expect(contact).toMatchObject({
      name: 'Anna',
      surname: 'Petrova',
      email: 'Anna.Petrova@Example.com',
      emails: ['Anna.Petrova@Example.com', 'a.petrova@work.example'],
      phone: '+7 912 345-67-89',
      birthday: '1990-04-12',
      notes: 'Met in Moscow',
      groups: [],
    });
    const read = await api(ann.browser, 'contact', { params: { id: contact.id } });
    expect(read.status).toBe(200);
    expect(read.body.contact).toEqual(contact);
  });

  it('a primary address not among the addresses is added first; the same address twice is kept once', async () => {
    const contact = await addContact(ann, {
      name: 'Boris',
      email: 'boris@example.org',
      emails: ['other@example.org', 'BORIS@example.org'],
    });
    expect(contact.emails).toEqual(['boris@example.org', 'other@example.org']);
    expect(contact.birthday).toBeNull();
  });

  it('a contact without a name is refused with "You didn\'t specify a name!"', async () => {
    for (const name of ['', '   ']) {
      const r = await api(ann.browser, 'createContact', { body: { name, emails: ['x@example.com'] } });
      expect(r.status).toBe(400);
      expect(code(r)).toBe('name_not_indicated');
      expect(r.body.error.message).toBe("You didn't specify a name!");
    }
  });

  it('every address is checked: one that is not an address is refused', async () => {
    const r = await api(ann.browser, 'createContact', {
      body: {
        name: 'X',
        emails: ['good@example.com', 'not an email'],
      },
    });
    expect(r.status).toBe(400);
    expect(code(r)).toBe('failed_validation_email_address');
    const primary = await api(ann.browser, 'createContact', { body: { name: 'X', email: 'nope@' } });
    expect(code(primary)).toBe('failed_validation_email_address');
  });

  it('a malformed body is a 400 with the catalogue code, never a 500', async () => {
    for (const body of [
      { name: 5 },
      { name: 'X', emails: 'a@b.c' },
      { name: 'X', birthday: '12.04.1990' },
      { name: 'X', emails: Array.from({ length: 21 }, (_, i) => `a${i}@example.com`) },
    ]) {
      const r = await api(ann.browser, 'createContact', { body: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(code(r)).toBe('invalid_request_params');
    }
    const impossible = await api(ann.browser, 'createContact', {
      body: { name: 'X', birthday: '2023-02-30' },
    });
    expect(impossible.status).toBe(400);
    expect(code(impossible)).toBe('invalid_request_params');
    const badId = await api(ann.browser, 'contact', { params: { id: 'abc' } });
    expect(badId.status).toBe(400);
  });

  it('a change touches only the fields given; emails replace the addresses, email picks the primary', async () => {
    const contact = await addContact(ann, {
      name: 'Chen',
      surname: 'Lee',
      emails: ['chen@example.net', 'lee@example.net'],
      phone: '123',
      notes: 'keep me',
    });
    const primary = await api(ann.browser, 'updateContact', {
      params: { id: contact.id },
      body: { email: 'lee@example.net' },
    });
    expect(primary.status).toBe(200);
    expect(primary.body.contact).toMatchObject({
      name: 'Chen',
      email: 'lee@example.net',
      emails: ['lee@example.net', 'chen@example.net'],
      phone: '123',
      notes: 'keep me',
    });
    const replaced = await api(ann.browser, 'updateContact', {
      params: { id: contact.id },
      body: {
        surname: 'Li',
        emails: ['new@example.net'],
        birthday: '1985-03-01',
      },
    });
    expect(replaced.body.contact).toMatchObject({
      name: 'Chen',
      surname: 'Li',
      emails: ['new@example.net'],
      birthday: '1985-03-01',
      notes: 'keep me',
    });
    const cleared = await api(ann.browser, 'updateContact', {
      params: { id: contact.id },
      body: { birthday: null, emails: [] },
    });
    expect(cleared.body.contact).toMatchObject({ birthday: null, email: '', emails: [] });
    const noName = await api(ann.browser, 'updateContact', {
      params: { id: contact.id },
      body: { name: ' ' },
    });
    expect(code(noName)).toBe('name_not_indicated');
    const badAddress = await api(ann.browser, 'updateContact', {
      params: { id: contact.id },
      body: { emails: ['x@'] },
    });
    expect(code(badAddress)).toBe('failed_validation_email_address');
    expect((await api(ann.browser, 'contact', { params: { id: contact.id } })).body.contact.surname).toBe(
      'Li',
    );
  });

  it('a deleted contact is gone; a bulk delete with one id not the caller’s deletes nothing', async () => {
    const a = await addContact(ann, { name: 'Del A' });
    const b = await addContact(ann, { name: 'Del B' });
    const theirs = await addContact(bob, { name: 'Bob’s own' });
    expect((await api(ann.browser, 'deleteContact', { params: { id: a.id } })).body).toEqual({ ok: true });
    expect((await api(ann.browser, 'contact', { params: { id: a.id } })).status).toBe(404);
    const again = await api(ann.browser, 'deleteContact', { params: { id: a.id } });
    expect(again.status).toBe(404);
    expect(code(again)).toBe('entity_not_found');
    const mixed = await api(ann.browser, 'deleteContacts', { body: { ids: [b.id, theirs.id] } });
    expect(mixed.status).toBe(404);
    expect((await api(ann.browser, 'contact', { params: { id: b.id } })).status).toBe(200);
    expect((await api(bob.browser, 'contact', { params: { id: theirs.id } })).status).toBe(200);
    const ok = await api(ann.browser, 'deleteContacts', { body: { ids: [b.id] } });
    expect(ok.body).toEqual({ ok: true });
    expect((await api(ann.browser, 'contact', { params: { id: b.id } })).status).toBe(404);
    expect((await api(ann.browser, 'deleteContacts', { body: { ids: [] } })).status).toBe(400);
  });
});

describe('contacts: pages and search', () => {
  let cat: MailUser;
  beforeAll(async () => {
    cat = await newUser('Cat Pages');
    for (const [name, surname, email, phone] of [
      ['Anna', 'Petrova', 'anna.petrova@example.com', ''],
      ['Пётр', 'Иванов', 'petr@example.ru', '+7 495 111-22-33'],
      ['Zoe', 'Adams', 'zoe@adams.example', ''],
      ['Mary Ann', 'Brown', 'mab@example.org', ''],
      ['Joanna', 'Smith', 'jo@example.org', ''],
      ['Mallory', 'Knox', 'mallory@wayne.example', ''],
    ] as const)
      await addContact(cat, { name, surname, emails: [email], phone });
  });

  it('pages go by surname, then name, with the total', async () => {
    const first = await api(cat.browser, 'contacts', { query: { page: 1, size: 2 } });
    expect(first.body.total).toBe(6);
    expect(first.body.contacts.map((c: Contact) => c.surname)).toEqual(['Adams', 'Brown']);
    const third = await api(cat.browser, 'contacts', { query: { page: 3, size: 2 } });
    expect(third.body.contacts.map((c: Contact) => c.surname)).toEqual(['Smith', 'Иванов']);
    const beyond = await api(cat.browser, 'contacts', { query: { page: 9, size: 2 } });
    expect(beyond.body).toEqual({ contacts: [], total: 6 });
    const all = await api(cat.browser, 'contacts');
    expect(all.body.contacts).toHaveLength(6);
    expect((await api(cat.browser, 'contacts', { query: { size: 1001 } })).status).toBe(400);
  });

  it('a search finds each word typed anywhere inside names, addresses and phone, in any case (as Gmail does)', async () => {
    const names = async (search: string) =>
      (await api(cat.browser, 'contacts', { query: { size: 1000, search } })).body.contacts
        .map((c: Contact) => c.name)
        .sort();
    expect(await names('ann')).toEqual(['Anna', 'Joanna', 'Mary Ann']);
    expect(await names('ИВА')).toEqual(['Пётр']);
    expect(await names('petr')).toEqual(['Anna', 'Пётр']);
    expect(await names('jo@')).toEqual(['Joanna']);
    expect(await names('495')).toEqual(['Пётр']);
    expect(await names('mary brown')).toEqual(['Mary Ann']);
    expect(await names('mary smith')).toEqual([]);
    expect(await names('oann')).toEqual(['Joanna']);
    expect(await names('wayne')).toEqual(['Mallory']);
    expect(await names('WAYNE.EX')).toEqual(['Mallory']);
    expect(await names('ванов')).toEqual(['Пётр']);
    expect(await names('100%_')).toEqual([]);
    expect(await names('n_')).toEqual([]);
    const counted = await api(cat.browser, 'contacts', { query: { size: 1, search: 'ann' } });
    expect(counted.body.total).toBe(3);
    expect(counted.body.contacts).toHaveLength(1);
  });
});

describe('groups', () => {
  it('are made, renamed and listed with their size; names are required and unique in any case', async () => {
    const dan = await newUser('Dan Groups');
    const made = await api(dan.browser, 'createGroup', { body: { name: ' Book club ' } });
    expect(made.status).toBe(200);
    expect(made.body.group).toEqual({ id: expect.any(Number), name: 'Book club', contacts: [] });
    const duplicate = await api(dan.browser, 'createGroup', { body: { name: 'BOOK CLUB' } });
    expect(duplicate.status).toBe(409);
    expect(code(duplicate)).toBe('group_already_exist');
    expect(code(await api(dan.browser, 'createGroup', { body: { name: '  ' } }))).toBe('name_not_indicated');
    expect((await api(dan.browser, 'createGroup', { body: {} })).status).toBe(400);
    // Another account may have a group of that name.
    expect((await api(bob.browser, 'createGroup', { body: { name: 'Book club' } })).status).toBe(200);

    const family = (await api(dan.browser, 'createGroup', { body: { name: 'Family' } })).body.group;
    const clash = await api(dan.browser, 'updateGroup', {
      params: { id: family.id },
      body: { name: 'book club' },
    });
    expect(code(clash)).toBe('group_already_exist');
    const renamed = await api(dan.browser, 'updateGroup', {
      params: { id: family.id },
      body: { name: 'Relatives' },
    });
    expect(renamed.body.group).toMatchObject({ id: family.id, name: 'Relatives' });
    // Its own name in another case is no clash.
    expect(
      (await api(dan.browser, 'updateGroup', { params: { id: family.id }, body: { name: 'RELATIVES' } }))
        .status,
    ).toBe(200);
    const list = await api(dan.browser, 'groups');
    expect(list.body.groups).toEqual([
      { id: made.body.group.id, name: 'Book club', count: 0 },
      { id: family.id, name: 'RELATIVES', count: 0 },
    ]);
  });

  it('members are added and removed; a group lists them, each contact lists its groups', async () => {
    const eve = await newUser('Eve Members');
    const a = await addContact(eve, { name: 'Ann', surname: 'Zed', emails: ['ann@example.com'] });
    const b = await addContact(eve, { name: 'Bo', surname: 'Young', emails: ['bo@example.com'] });
    const group = (await api(eve.browser, 'createGroup', { body: { name: 'Friends' } })).body.group;
    const added = await api(eve.browser, 'groupMembers', {
      params: { id: group.id },
      body: {
        add: [a.id, b.id, a.id],
      },
    });
    expect(added.status).toBe(200);
    expect(added.body.group.contacts.map((c: Contact) => c.name)).toEqual(['Bo', 'Ann']);
    expect((await api(eve.browser, 'group', { params: { id: group.id } })).body.group).toEqual(
      added.body.group,
    );
    expect((await api(eve.browser, 'contact', { params: { id: a.id } })).body.contact.groups).toEqual([
      group.id,
    ]);
    expect((await api(eve.browser, 'groups')).body.groups[0].count).toBe(2);
    const inGroup = await api(eve.browser, 'contacts', { query: { group: group.id } });
    expect(inGroup.body.total).toBe(2);

    const removed = await api(eve.browser, 'groupMembers', {
      params: { id: group.id },
      body: {
        remove: [b.id],
      },
    });
    expect(removed.body.group.contacts.map((c: Contact) => c.id)).toEqual([a.id]);
    const unknown = await api(eve.browser, 'groupMembers', {
      params: { id: group.id },
      body: {
        add: [b.id, 99_999_999],
      },
    });
    expect(unknown.status).toBe(404);
    expect((await api(eve.browser, 'group', { params: { id: group.id } })).body.group.contacts).toHaveLength(
      1,
    );
    const nothing = await api(eve.browser, 'groupMembers', {
      params: { id: group.id },
      body: {
        add: [],
        remove: [],
      },
    });
    expect(nothing.status).toBe(400);
    expect(code(nothing)).toBe('invalid_request_params');

    // Deleting the group keeps its contacts; deleting a contact takes it out of its groups.
    const other = (await api(eve.browser, 'createGroup', { body: { name: 'Other' } })).body.group;
    await api(eve.browser, 'groupMembers', { params: { id: other.id }, body: { add: [a.id, b.id] } });
    expect((await api(eve.browser, 'deleteGroup', { params: { id: group.id } })).body).toEqual({ ok: true });
    expect((await api(eve.browser, 'group', { params: { id: group.id } })).status).toBe(404);
    expect((await api(eve.browser, 'contact', { params: { id: a.id } })).body.contact.groups).toEqual([
      other.id,
    ]);
    await api(eve.browser, 'deleteContact', { params: { id: b.id } });
    expect((await api(eve.browser, 'group', { params: { id: other.id } })).body.group.contacts).toHaveLength(
      1,
    );
    expect((await api(eve.browser, 'deleteGroup', { params: { id: group.id } })).status).toBe(404);
  });
});

describe("another account's ids are not found, and nothing of them shows", () => {
  it('contacts and groups of Ann answer 404 to Bob, and stay as they were', async () => {
    const contact = await addContact(ann, {
      name: 'Secret',
      surname: 'Person',
      emails: ['secret@example.com'],
    });
    const group = (await api(ann.browser, 'createGroup', { body: { name: 'Secret group' } })).body.group;
    await api(ann.browser, 'groupMembers', { params: { id: group.id }, body: { add: [contact.id] } });
    const bobGroup = (await api(bob.browser, 'createGroup', { body: { name: 'Bob group' } })).body.group;
    const tries = [
      api(bob.browser, 'contact', { params: { id: contact.id } }),
      api(bob.browser, 'updateContact', { params: { id: contact.id }, body: { name: 'Hacked' } }),
      api(bob.browser, 'deleteContact', { params: { id: contact.id } }),
      api(bob.browser, 'deleteContacts', { body: { ids: [contact.id] } }),
      api(bob.browser, 'group', { params: { id: group.id } }),
      api(bob.browser, 'updateGroup', { params: { id: group.id }, body: { name: 'Hacked' } }),
      api(bob.browser, 'groupMembers', { params: { id: group.id }, body: { remove: [contact.id] } }),
      api(bob.browser, 'deleteGroup', { params: { id: group.id } }),
      api(bob.browser, 'groupMembers', { params: { id: bobGroup.id }, body: { add: [contact.id] } }),
      api(bob.browser, 'contacts', { query: { group: group.id } }),
      api(bob.browser, 'exportContacts', { query: { group: group.id } }),
    ];
    for (const r of await Promise.all(tries)) {
      expect(r.status).toBe(404);
      expect(code(r)).toBe('entity_not_found');
      expect(JSON.stringify(r.body)).not.toMatch(/Secret|secret@/);
    }
    const bobsView = await api(bob.browser, 'contacts', { query: { size: 1000, search: 'secret' } });
    expect(bobsView.body).toEqual({ contacts: [], total: 0 });
    expect((await api(bob.browser, 'suggestContacts', { query: { q: 'secret' } })).body.suggestions).toEqual(
      [],
    );
    expect(
      (await api(bob.browser, 'knownContact', { query: { email: 'secret@example.com' } })).body.contact_id,
    ).toBeNull();
    expect((await api(ann.browser, 'contact', { params: { id: contact.id } })).body.contact).toMatchObject({
      name: 'Secret',
      groups: [group.id],
    });
    expect((await api(ann.browser, 'group', { params: { id: group.id } })).body.group.name).toBe(
      'Secret group',
    );
  });
});

describe('a session held to one address', () => {
  it('is kept out of contacts and groups, and gets no suggestions', async () => {
    const fay = await newUser('Fay Desk');
    await addContact(fay, { name: 'Alice', emails: ['alice@example.com'] });
    const desk = await heldToOneAddress(fay);
    for (const call of [
      ['contacts'],
      ['groups'],
      ['exportContacts'],
      ['knownContact', { query: { email: 'alice@example.com' } }],
      ['createContact', { body: { name: 'X' } }],
      ['createGroup', { body: { name: 'X' } }],
    ] satisfies RouteCall[]) {
      const r = await apiCall(desk, call);
      expect(r.status, call[0]).toBe(403);
      expect(code(r)).toBe('forbidden');
    }
    const suggested = await api(desk, 'suggestContacts', { query: { q: 'ali' } });
    expect(suggested.status).toBe(200);
    expect(suggested.body).toEqual({ suggestions: [] });
    expect(
      (await api(fay.browser, 'suggestContacts', { query: { q: 'ali' } })).body.suggestions,
    ).toHaveLength(1);
  });
});

describe('suggestions', () => {
  it('rank a start of the address or name first, then a word start, then a contained match; then by sends', async () => {
    const gus = await newUser('Gus Suggest');
    await addContact(gus, { name: 'Joanna', surname: 'Smith', emails: ['jsmith@example.com'] });
    await addContact(gus, { name: 'Boris', surname: 'Annenkov', emails: ['boris@example.com'] });
    await addContact(gus, {
      name: 'Anna',
      surname: 'Petrova',
      emails: ['ap@example.com', 'anna.p@home.example'],
    });
    await addContact(gus, { name: 'Annette', surname: 'Ng', emails: ['annette@example.com'] });
    await addContact(gus, { name: 'No', surname: 'Address' });
    // Gus writes to Annette more than to Anna, and to someone who is not a contact.
    const sent = (to: string[]) => api(gus.browser, 'sendMessage', { body: compose(gus.email, to) });
    for (let i = 0; i < 3; i++) expect((await sent(['annette@example.com'])).status).toBe(200);
    expect((await sent(['ap@example.com', 'annabel@example.net'])).status).toBe(200);

    const { status, body } = await api(gus.browser, 'suggestContacts', { query: { q: 'ann', limit: 20 } });
    expect(status).toBe(200);
    expect(body.suggestions.map((s: { email: string }) => s.email)).toEqual([
      'annette@example.com', // tier 0, written to 3 times
      'ap@example.com', // tier 0 (name), written to once
      'annabel@example.net', // tier 0 (address), written to once, not a contact
      'anna.p@home.example', // tier 0, never written to
      'boris@example.com', // a word of the name starts with q
      'jsmith@example.com', // the name contains q
    ]);
    expect(body.suggestions[0]).toEqual({
      kind: 'contact',
      contact_id: expect.any(Number),
      name: 'Annette Ng',
      email: 'annette@example.com',
    });
    expect(body.suggestions[2]).toEqual({ kind: 'recent', name: '', email: 'annabel@example.net' });
    const two = await api(gus.browser, 'suggestContacts', { query: { q: 'ann', limit: 2 } });
    expect(two.body.suggestions.map((s: { email: string }) => s.email)).toEqual([
      'annette@example.com',
      'ap@example.com',
    ]);
    expect((await api(gus.browser, 'suggestContacts', { query: { q: '%' } })).body.suggestions).toEqual([]);
    expect((await api(gus.browser, 'suggestContacts', { query: { q: '' } })).status).toBe(400);
    expect((await api(gus.browser, 'suggestContacts', { query: { q: 'a', limit: 51 } })).status).toBe(400);
  });

  it('offer a group as its members’ primary addresses, and an address a contact has only once', async () => {
    const hal = await newUser('Hal Groups');
    const a = await addContact(hal, {
      name: 'Ann',
      surname: 'Lee',
      emails: ['ann@example.com', 'ann2@example.com'],
    });
    const b = await addContact(hal, { name: 'Ben', surname: 'Ode', emails: ['ben@example.com'] });
    await addContact(hal, { name: 'Cy', surname: 'Nobody' });
    const group = (await api(hal.browser, 'createGroup', { body: { name: 'Team Alpha' } })).body.group;
    await api(hal.browser, 'groupMembers', { params: { id: group.id }, body: { add: [a.id, b.id] } });
    const { body } = await api(hal.browser, 'suggestContacts', { query: { q: 'alp' } });
    expect(body.suggestions).toEqual([
      {
        kind: 'group',
        group_id: group.id,
        name: 'Team Alpha',
        members: [
          { name: 'Ann Lee', email: 'ann@example.com' },
          { name: 'Ben Ode', email: 'ben@example.com' },
        ],
      },
    ]);
    // Written to, and a contact: offered as the contact, not again as a recent address.
    await api(hal.browser, 'sendMessage', { body: compose(hal.email, ['ben@example.com']) });
    const ben = await api(hal.browser, 'suggestContacts', { query: { q: 'ben' } });
    expect(ben.body.suggestions).toEqual([
      { kind: 'contact', contact_id: b.id, name: 'Ben Ode', email: 'ben@example.com' },
    ]);
  });
});

describe('correspondents and the known-sender check', () => {
  it('a real send records each recipient, how often and under which name', async () => {
    const ivy = await newUser('Ivy Sender');
    const before = await api(ivy.browser, 'knownContact', { query: { email: bob.email } });
    expect(before.body).toEqual({ contact_id: null, written_to: false });
    const request = compose(ivy.email, [bob.email], {
      fields: {
        from: { email: ivy.email, name: '' },
        to: [{ email: bob.email.toUpperCase(), name: 'Bob C.' }],
        cc: [{ email: 'carol@example.com', name: '' }],
        bcc: [{ email: 'Carol@Example.com', name: 'Carol' }],
      },
    });
    expect((await api(ivy.browser, 'sendMessage', { body: request })).status).toBe(200);
    expect((await api(ivy.browser, 'sendMessage', { body: compose(ivy.email, [bob.email]) })).status).toBe(
      200,
    );
    const rows = await db
      .selectFrom('correspondents')
      .select(['email', 'name', 'sent_count'])
      .where('account_id', '=', ivy.accountId)
      .orderBy('email')
      .execute();
    expect(rows).toEqual([
      { email: bob.email, name: 'Bob C.', sent_count: 2 },
      { email: 'carol@example.com', name: 'Carol', sent_count: 1 },
    ]);
    const after = await api(ivy.browser, 'knownContact', { query: { email: bob.email } });
    expect(after.body).toEqual({ contact_id: null, written_to: true });
    const contact = await addContact(ivy, { name: 'Carol', emails: ['CAROL@example.com'] });
    const carol = await api(ivy.browser, 'knownContact', { query: { email: 'carol@EXAMPLE.com' } });
    expect(carol.body).toEqual({ contact_id: contact.id, written_to: true });
    // Bob was only written to by Ivy: nothing of it reaches Bob's own lists.
    expect((await api(bob.browser, 'knownContact', { query: { email: ivy.email } })).body).toEqual({
      contact_id: null,
      written_to: false,
    });
  });
});

describe('the migration that makes the address book', () => {
  it('counts who each account wrote to from the mail already in its Sent folder', async () => {
    const fresh = await createTestDb();
    const blobs = ctx.blobs;
    const owner = await createAccount(fresh, 'Old Sender');
    const other = await createAccount(fresh, 'Other Sender');
    const sent = await systemFolder(fresh, owner.id, 'sent');
    const inbox = await systemFolder(fresh, owner.id, 'inbox');
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    const inSent = { folderId: sent.id };
    await deliverTestMessage(
      fresh,
      blobs,
      owner.id,
      { from: owner.email, to: 'Pat <pat@example.com>', date: day(1) },
      inSent,
    );
    await deliverTestMessage(
      fresh,
      blobs,
      owner.id,
      {
        from: owner.email,
        to: 'Patricia <PAT@example.com>',
        cc: 'sam@example.com',
        bcc: 'pat@example.com',
        date: day(3),
      },
      inSent,
    );
    // Mail received is not mail written.
    await deliverTestMessage(
      fresh,
      blobs,
      owner.id,
      { from: 'spam@example.com', to: owner.email },
      { folderId: inbox.id },
    );
    await deliverTestMessage(
      fresh,
      blobs,
      other.id,
      { from: other.email, to: 'sam@example.com' },
      {
        folderId: (await systemFolder(fresh, other.id, 'sent')).id,
      },
    );
    await sql`drop table contact_group_members, contact_groups, contact_emails, contacts, correspondents`.execute(
      fresh,
    );
    await contactsMigration(asMigrationDb(fresh));
    const rows = await fresh
      .selectFrom('correspondents')
      .select(['account_id', 'email', 'name', 'sent_count', 'last_sent_at'])
      .orderBy('account_id')
      .orderBy('email')
      .execute();
    expect(rows).toEqual([
      {
        account_id: owner.id,
        email: 'pat@example.com',
        name: 'Patricia',
        sent_count: 2,
        last_sent_at: day(3),
      },
      {
        account_id: owner.id,
        email: 'sam@example.com',
        name: '',
        sent_count: 1,
        last_sent_at: expect.any(Date),
      },
      {
        account_id: other.id,
        email: 'sam@example.com',
        name: '',
        sent_count: 1,
        last_sent_at: expect.any(Date),
      },
    ]);
  });
});

describe('image_display', () => {
  const remoteImage = 'https://images.example.net/photo.png';
  const html = `<p>Look</p><img src="${remoteImage}" alt="photo">`;
  const open = async (
    user: MailUser,
    message: { folderId: number; uid: number },
    query: { show_images?: 'true' | 'false' } = {},
  ) =>
    (await api(user.browser, 'message', { params: { folder_id: message.folderId, uid: message.uid }, query }))
      .body.message as {
      images_blocked: boolean;
      content: string;
    };
  const shown = (mail: { images_blocked: boolean; content: string }) =>
    !mail.images_blocked &&
    Buffer.from(mail.content, 'base64')
      .toString('utf8')
      .includes(apiPath('imageProxy', { query: { url: '' } }));

  it("'correspondent' shows remote images, through the proxy, from contacts and from addresses written to", async () => {
    const jo = await newUser('Jo Images');
    expect((await api(jo.browser, 'settings')).body.settings.image_display).toBe('correspondent');
    const stranger = await jo.deliver({ from: 'stranger@example.org', subject: 'S', html });
    const friend = await jo.deliver({ from: 'Friend <Friend@Example.org>', subject: 'F', html });
    const pen = await jo.deliver({ from: 'pen.pal@example.org', subject: 'P', html });
    expect((await open(jo, stranger)).images_blocked).toBe(true);
    expect((await open(jo, friend)).images_blocked).toBe(true);
    expect((await open(jo, pen)).images_blocked).toBe(true);

    await addContact(jo, { name: 'Friend', emails: ['friend@example.org'] });
    expect(
      (await api(jo.browser, 'sendMessage', { body: compose(jo.email, ['pen.pal@example.org']) })).status,
    ).toBe(200);
    expect(shown(await open(jo, friend))).toBe(true);
    expect(shown(await open(jo, pen))).toBe(true);
    expect((await open(jo, stranger)).images_blocked).toBe(true);
    // Asked for, or refused, in so many words: the setting does not decide.
    expect(shown(await open(jo, stranger, { show_images: 'true' }))).toBe(true);
    expect((await open(jo, friend, { show_images: 'false' })).images_blocked).toBe(true);
    // By Message-ID too.
    const byId = await api(jo.browser, 'messageById', {
      query: {
        message_id: (
          await db
            .selectFrom('messages')
            .select('message_id')
            .where('id', '=', friend.id)
            .executeTakeFirstOrThrow()
        ).message_id!,
      },
    });
    expect(shown(byId.body.message)).toBe(true);

    // 'never' shows none without asking, 'always' every one.
    await api(jo.browser, 'changeSettings', { body: { image_display: 'never' } });
    expect((await open(jo, friend)).images_blocked).toBe(true);
    await api(jo.browser, 'changeSettings', { body: { image_display: 'always' } });
    expect(shown(await open(jo, stranger))).toBe(true);
  });

  it('mail in Junk never shows remote images by itself, and a contact whose From failed DMARC shows none', async () => {
    const ivy = await newUser('Ivy Junk');
    await addContact(ivy, { name: 'Friend', emails: ['friend@example.org'] });
    const junk = await ivy.deliver(
      { from: 'friend@example.org', subject: 'J', html },
      { folderId: ivy.folders.junk },
    );
    const forged = await ivy.deliver({ from: 'friend@example.org', subject: 'F', html });
    const failed = {
      auth: {
        fromDomain: 'example.org',
        spf: { result: 'fail', domain: 'example.org' },
        dkim: [],
        dmarc: { result: 'fail', policy: 'none', domain: 'example.org' },
        arc: { result: 'none', sealer: '', trusted: false },
      },
    };
    await db
      .updateTable('message_contents')
      .set({ verdict: JSON.stringify(failed) })
      .where('message_id', '=', forged.id)
      .execute();
    expect((await open(ivy, junk)).images_blocked).toBe(true);
    expect((await open(ivy, forged)).images_blocked).toBe(true);
    await api(ivy.browser, 'changeSettings', { body: { image_display: 'always' } });
    expect((await open(ivy, junk)).images_blocked).toBe(true);
    expect(shown(await open(ivy, forged))).toBe(true);
    // Asked for in so many words, Junk's images show too.
    expect(shown(await open(ivy, junk, { show_images: 'true' }))).toBe(true);
  });

  it("'correspondent' shows none to a session held to one address, which never sees the address book", async () => {
    const kim = await newUser('Kim Desk');
    await addContact(kim, { name: 'Friend', emails: ['friend@example.org'] });
    const message = await kim.deliver({ from: 'friend@example.org', subject: 'F', html });
    expect(shown(await open(kim, message))).toBe(true);
    const desk = await heldToOneAddress(kim);
    const r = await api(desk, 'message', { params: { folder_id: message.folderId, uid: message.uid } });
    expect(r.status).toBe(200);
    expect(r.body.message.images_blocked).toBe(true);
  });
});

describe('live updates', () => {
  it('every change tells the owner’s other tabs which part to read again, after it is committed', async () => {
    const lu = await newUser('Lu Live');
    const created = await eventsDuring(lu, () => api(lu.browser, 'createContact', { body: { name: 'X' } }));
    expect(created).toEqual([{ event: 'updateAccount', part: 'contacts' }]);
    const refused = await eventsDuring(lu, () => api(lu.browser, 'createContact', { body: { name: '' } }));
    expect(refused).toEqual([]);
    const grouped = await eventsDuring(lu, () => api(lu.browser, 'createGroup', { body: { name: 'G' } }));
    expect(grouped).toEqual([{ event: 'updateAccount', part: 'groups' }]);
    const contacts = (await api(lu.browser, 'contacts')).body.contacts as Contact[];
    const deleted = await eventsDuring(lu, () =>
      api(lu.browser, 'deleteContact', { params: { id: contacts[0]!.id } }),
    );
    expect(deleted).toEqual([
      { event: 'updateAccount', part: 'contacts' },
      { event: 'updateAccount', part: 'groups' },
    ]);
  });
});
