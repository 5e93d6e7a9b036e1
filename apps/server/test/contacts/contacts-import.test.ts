import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Contact, ContactImportResponse, Group, MailEvent } from '@mailroom/protocol';
import pino from 'pino';
import { runContactImport } from '../../src/contacts/index.js';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { api, apiRequest, apiPath } from '../_client.js';

const ctx = await createTestApp();
const fixtures = new URL('../../../../test-support/fixtures/contacts/', import.meta.url);
const fixture = (name: string) => fs.readFileSync(new URL(name, fixtures));

/** POST contacts/import with the file as the body, as the web app sends it. */
async function importFile(
  user: MailUser,
  file: Buffer,
  contentType: string | null = 'text/vcard',
  query: Record<string, unknown> = {},
) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: apiPath('importContacts', { query }),
    headers: {
      host: 'mailroom.localhost',
      origin: 'http://mailroom.localhost',
      'x-mailroom-csrf': '1',
      cookie: [...user.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(contentType ? { 'content-type': contentType } : {}),
    },
    payload: file,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.statusCode, body: response.json() as any };
}

const jobDeps = () => ({
  db: ctx.db,
  blobs: ctx.blobs,
  events: ctx.events,
  log: pino({ level: 'silent' }),
  limits: ctx.config.contacts,
});

/** Runs the contact-imports job until no import waits (main.ts runs it in the server). */
async function runImports() {
  while (await runContactImport(jobDeps()));
}

/** An import started (it answers at once, queued), run by the job, and read back when done. */
async function importedJob(
  user: MailUser,
  file: Buffer,
  contentType?: string | null,
  query?: Record<string, unknown>,
) {
  const r = await importFile(user, file, contentType, query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body).toMatchObject({ state: 'queued', done: 0 });
  await runImports();
  const after = await api(user.browser, 'contactImport', { params: { id: r.body.id } });
  expect(after.status).toBe(200);
  return after.body as ContactImportResponse;
}

/** What a finished import says, as the counts and the skipped list. */
async function imported(
  user: MailUser,
  file: Buffer,
  contentType?: string | null,
  query?: Record<string, unknown>,
) {
  const job = await importedJob(user, file, contentType, query);
  expect(job.state, JSON.stringify(job)).toBe('done');
  const { added, updated, unchanged, groups_added, skipped } = job;
  return { added, updated, unchanged, groups_added, skipped };
}

async function contactsOf(user: MailUser): Promise<Contact[]> {
  return (await api(user.browser, 'contacts', { query: { size: 1000 } })).body.contacts;
}

/** Each group's name with its members' "name surname", sorted. */
async function groupsOf(user: MailUser): Promise<Record<string, string[]>> {
  const { groups } = (await api(user.browser, 'groups')).body as {
    groups: { id: number }[];
  };
  const out: Record<string, string[]> = {};
  for (const g of groups) {
    const group = (await api(user.browser, 'group', { params: { id: g.id } })).body.group as Group;
    out[group.name] = group.contacts.map((c) => `${c.name} ${c.surname}`.trim()).sort();
  }
  return out;
}

const byName = (contacts: Contact[], name: string) => contacts.find((c) => c.name === name)!;
const nothingNew = (
  count: number,
): Pick<ContactImportResponse, 'added' | 'updated' | 'unchanged' | 'groups_added' | 'skipped'> => ({
  added: 0,
  updated: 0,
  unchanged: count,
  groups_added: 0,
  skipped: [],
});

async function exported(user: MailUser, query: Record<string, unknown> = {}) {
  const response = await apiRequest(user.browser, 'exportContacts', { query });
  expect(response.statusCode).toBe(200);
  return response;
}

/** An export's lines unfolded (ical.js folds them at 75 characters). */
const unfolded = (text: string) => text.replace(/\r\n[ \t]/g, '');

describe('importing vCard files', () => {
  it('vCard 3.0: contacts with every field, groups from CATEGORIES and from a group card; twice adds nothing', async () => {
    const ann = await mailUser(ctx, 'Ann Import');
    const file = fixture('vcard-3.0.vcf');
    expect(await imported(ann, file)).toEqual({
      added: 4,
      updated: 0,
      unchanged: 0,
      groups_added: 3,
      skipped: [],
    });
    const contacts = await contactsOf(ann);
    expect(contacts.map((c) => c.surname)).toEqual(['Lee', 'Petrova', 'Smirnov', 'Иванова']);
    expect(byName(contacts, 'Anna')).toMatchObject({
      surname: 'Petrova',
      email: 'anna.petrova@example.com',
      emails: ['anna.petrova@example.com', 'A.Petrova@Work.example'],
      phone: '+7 912 345-67-89',
      birthday: '1990-04-12',
      notes: 'Met at the conference, Moscow 2023.\nLikes green tea and long walks along the river.',
    });
    expect(await groupsOf(ann)).toEqual({
      'Book club': ['Anna Petrova', 'Boris Smirnov'],
      Colleagues: ['Chen Lee', 'Мария Иванова'],
      Family: ['Anna Petrova'],
    });
    expect(await imported(ann, file)).toEqual(nothingNew(4));
    expect(await contactsOf(ann)).toEqual(contacts);
  });

  it('vCard 2.1 as Outlook writes it: quoted-printable windows-1251, soft line breaks, bare type parameters', async () => {
    const bob = await mailUser(ctx, 'Bob Import');
    const file = fixture('outlook-2.1-windows-1251.vcf');
    expect(await imported(bob, file, 'text/x-vcard')).toEqual({
      added: 2,
      updated: 0,
      unchanged: 0,
      groups_added: 1,
      skipped: [],
    });
    const contacts = await contactsOf(bob);
    expect(byName(contacts, 'Алексей')).toMatchObject({
      surname: 'Сидоров',
      emails: ['a.sidorov@example.ru', 'alexey.sidorov@mail.example'],
      phone: '+7 (495) 123-45-67',
      birthday: '1978-09-23',
      notes: 'Звонить после обеда.\nПредпочитает письма, а не звонки; отвечает в течение дня.',
    });
    expect(byName(contacts, 'Елена')).toMatchObject({ surname: 'Кузьмина', phone: '+7 812 555-12-34' });
    expect(await groupsOf(bob)).toEqual({ Коллеги: ['Елена Кузьмина'] });
    expect(await imported(bob, file)).toEqual(nothingNew(2));
    // What the screen does not show came along: the title in raw windows-1251, the second phone, the address.
    const text = unfolded((await exported(bob)).body);
    expect(text).toContain('TITLE;LANGUAGE=ru:Главный бухгалтер');
    expect(text).toContain('+7 (916) 765-43-21');
    expect(text).toMatch(/ADR;[^:]*:;;ул\. Тверская\\, 1;Москва;;125009;Россия/);
    expect(text).toContain('N;LANGUAGE=ru:Сидоров;Алексей;Петрович');
  });

  it('vCard 4.0: a KIND:group card by UID and mailto:, a birthday without a year kept, not shown', async () => {
    const cy = await mailUser(ctx, 'Cy Import');
    const result = await imported(cy, fixture('vcard-4.0.vcf'));
    expect(result).toEqual({ added: 2, updated: 0, unchanged: 0, groups_added: 2, skipped: [] });
    const contacts = await contactsOf(cy);
    expect(byName(contacts, 'Olga')).toMatchObject({
      surname: 'Kuznetsova',
      emails: ['olga@lab.example', 'olga.k@example.com'],
      phone: '+7-903-555-0101',
      birthday: null,
      notes: 'Prefers email to calls.',
    });
    expect(byName(contacts, 'Pavel').birthday).toBe('1985-03-01');
    expect(await groupsOf(cy)).toEqual({
      Lab: ['Olga Kuznetsova', 'Pavel Orlov'],
      Science: ['Olga Kuznetsova'],
    });
  });

  it('a file the browser gives no type, or a generic one, is read by its content', async () => {
    const dee = await mailUser(ctx, 'Dee Types');
    const file = fixture('vcard-3.0.vcf');
    expect((await imported(dee, file, null)).added).toBe(4);
    expect(await imported(dee, file, 'application/octet-stream')).toEqual(nothingNew(4));
    expect(await imported(dee, file, 'text/plain')).toEqual(nothingNew(4));
    expect(await imported(dee, file, 'text/directory', { format: 'vcard' })).toEqual(nothingNew(4));
  });
});

describe('importing CSV files', () => {
  it('Google CSV: several addresses in one cell, Group Membership without Google’s own groups; twice adds nothing', async () => {
    const eve = await mailUser(ctx, 'Eve Google');
    const file = fixture('google.csv');
    expect(await imported(eve, file, 'text/csv')).toEqual({
      added: 3,
      updated: 0,
      unchanged: 0,
      groups_added: 2,
      skipped: [],
    });
    const contacts = await contactsOf(eve);
    expect(byName(contacts, 'Nina')).toMatchObject({
      surname: 'Volkova',
      emails: ['nina.volkova@example.com', 'nina@volkova.example', 'n.volkova@corp.example'],
      phone: '+7 921 000-11-22',
      birthday: '1992-11-03',
      notes: 'Old friend from school.\nCall on Sundays.',
    });
    expect(byName(contacts, 'Дмитрий')).toMatchObject({ surname: 'Соколов', birthday: null });
    expect(await groupsOf(eve)).toEqual({
      Friends: ['Nina Volkova'],
      Running: ['Nina Volkova', 'Дмитрий Соколов'],
    });
    expect(await imported(eve, file, 'text/csv')).toEqual(nothingNew(3));
    const text = unfolded((await exported(eve)).body);
    expect(text).toContain('ORG:Corp Example');
    expect(text).toContain('BDAY:--0721');
  });

  it('Outlook CSV in windows-1251: quoted fields, Categories by ";", a day-first birthday, 0/0/00 as none', async () => {
    const fay = await mailUser(ctx, 'Fay Outlook');
    const file = fixture('outlook.csv');
    expect(await imported(fay, file, 'application/vnd.ms-excel')).toEqual({
      added: 2,
      updated: 0,
      unchanged: 0,
      groups_added: 2,
      skipped: [],
    });
    const contacts = await contactsOf(fay);
    expect(byName(contacts, 'Игорь')).toMatchObject({
      surname: 'Белов',
      emails: ['igor.belov@example.ru', 'belov@home.example'],
      phone: '+7 (495) 765-43-21',
      birthday: '1980-05-17',
      notes: 'Отвечает быстро.\nЛюбит подробные письма.',
    });
    expect(byName(contacts, 'Sarah').birthday).toBeNull();
    expect(await groupsOf(fay)).toEqual({
      Коллеги: ['Игорь Белов'],
      'Проект Альфа': ['Sarah Connor', 'Игорь Белов'],
    });
    expect(await imported(fay, file, 'text/csv')).toEqual(nothingNew(2));
  });
});

describe('an import meets the address book', () => {
  it('completes a contact with the same address, or the same name, instead of adding it again', async () => {
    const gus = await mailUser(ctx, 'Gus Merge');
    const anna = (
      await api(gus.browser, 'createContact', {
        body: {
          name: 'Anya',
          emails: ['ANNA.PETROVA@example.com'],
          notes: 'mine',
        },
      })
    ).body.contact as Contact;
    const chen = (await api(gus.browser, 'createContact', { body: { name: 'chen', surname: 'LEE' } })).body
      .contact as Contact;
    const result = await imported(gus, fixture('vcard-3.0.vcf'));
    expect(result).toEqual({ added: 2, updated: 2, unchanged: 0, groups_added: 3, skipped: [] });
    const contacts = await contactsOf(gus);
    expect(contacts).toHaveLength(4);
    // Completed, not overwritten: its name and notes stay, it gains what it lacked.
    expect(contacts.find((c) => c.id === anna.id)).toMatchObject({
      name: 'Anya',
      notes: 'mine',
      emails: ['ANNA.PETROVA@example.com', 'A.Petrova@Work.example'],
      phone: '+7 912 345-67-89',
      birthday: '1990-04-12',
    });
    expect(contacts.find((c) => c.id === chen.id)).toMatchObject({
      name: 'chen',
      emails: ['chen.lee@example.net'],
    });
  });

  it('two people of one name with addresses of their own stay two; an entry without an address matches by name', async () => {
    const ned = await mailUser(ctx, 'Ned Namesakes');
    const card = (...lines: string[]) => [
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:John Smith',
      'N:Smith;John;;;',
      ...lines,
      'END:VCARD',
    ];
    const file = Buffer.from(
      [
        ...card('EMAIL:john.smith@one.example'),
        ...card('EMAIL:john.smith@two.example'),
        ...card('TEL:+1 555 0100'),
        '',
      ].join('\r\n'),
    );
    expect(await imported(ned, file)).toEqual({
      added: 2,
      updated: 1,
      unchanged: 0,
      groups_added: 0,
      skipped: [],
    });
    const contacts = await contactsOf(ned);
    expect(contacts.map((c) => c.emails)).toEqual([['john.smith@one.example'], ['john.smith@two.example']]);
    expect(contacts[0]!.phone).toBe('+1 555 0100');
    expect(await imported(ned, file)).toEqual(nothingNew(3));
  });

  it('an existing group by name in any case is used; ?group= puts every contact in it as well', async () => {
    const hal = await mailUser(ctx, 'Hal Target');
    const club = (await api(hal.browser, 'createGroup', { body: { name: 'BOOK CLUB' } })).body.group as Group;
    const target = (await api(hal.browser, 'createGroup', { body: { name: 'Imported' } })).body
      .group as Group;
    const result = await imported(hal, fixture('vcard-3.0.vcf'), 'text/vcard', { group: target.id });
    expect(result.groups_added).toBe(2);
    const groups = await groupsOf(hal);
    expect(groups['BOOK CLUB']).toEqual(['Anna Petrova', 'Boris Smirnov']);
    expect(groups.Imported).toHaveLength(4);
    expect(club.id).toBeGreaterThan(0);
    const other = await mailUser(ctx, 'Other Target');
    const refused = await importFile(other, fixture('vcard-3.0.vcf'), 'text/vcard', { group: target.id });
    expect(refused.status).toBe(404);
    expect(refused.body.error.meta.i8s).toBe('entity_not_found');
    expect(await contactsOf(other)).toEqual([]);
  });

  it('an entry with neither name nor address is skipped and said so; a broken card does not stop the rest', async () => {
    const ida = await mailUser(ctx, 'Ida Skips');
    const file = Buffer.from(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'NOTE:nobody',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'EMAIL:only.address@example.com',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'N:Valid;Val',
        'EMAIL:not-an-address',
        'END:VCARD',
        '',
      ].join('\r\n'),
    );
    const result = await imported(ida, file);
    expect(result).toEqual({
      added: 2,
      updated: 0,
      unchanged: 0,
      groups_added: 0,
      skipped: [{ entry: 1, reason: 'no name and no address' }],
    });
    const contacts = await contactsOf(ida);
    expect(contacts.map((c) => [c.name, c.emails])).toEqual([
      ['only.address@example.com', ['only.address@example.com']],
      ['Val', []],
    ]);
    // The address that is not one is kept with the fields we do not show.
    expect((await exported(ida)).body).toContain('EMAIL:not-an-address');
    expect(await imported(ida, file)).toMatchObject({ added: 0, updated: 0, unchanged: 2 });
  });

  it('a NUL byte in a vCard, raw or quoted-printable, is dropped, not a 500', async () => {
    const nel = await mailUser(ctx, 'Nel Nul');
    const file = Buffer.concat([
      Buffer.from('BEGIN:VCARD\r\nVERSION:3.0\r\nN:Nul;Ne'),
      Buffer.from([0]),
      Buffer.from('l\r\nEMAIL:nel@example.com\r\nNOTE;ENCODING=QUOTED-PRINTABLE:a=00b\r\n'),
      Buffer.from('X-CUSTOM:x'),
      Buffer.from([0]),
      Buffer.from('y\r\nEND:VCARD\r\n'),
    ]);
    expect(await imported(nel, file)).toMatchObject({ added: 1, skipped: [] });
    const [contact] = await contactsOf(nel);
    expect([contact!.name, contact!.surname, contact!.notes]).toEqual(['Nel', 'Nul', 'ab']);
    expect(unfolded((await exported(nel)).body)).toContain('X-CUSTOM:xy');
  });

  it('a card with more properties than a card has is skipped, and the rest of the file is read', async () => {
    const pia = await mailUser(ctx, 'Pia Props');
    const huge = ['BEGIN:VCARD', 'VERSION:3.0', 'N:Huge;Hugo'];
    for (let i = 0; i < 150_000; i++) huge.push(`X-P${i % 10}:${i}`);
    huge.push('END:VCARD', 'BEGIN:VCARD', 'VERSION:3.0', 'N:Small;Sam', 'END:VCARD', '');
    const result = await imported(pia, Buffer.from(huge.join('\r\n')));
    expect(result).toMatchObject({ added: 1, skipped: [{ entry: 1, reason: 'more than 1000 properties' }] });
    expect((await contactsOf(pia)).map((c) => c.name)).toEqual(['Sam']);
  });

  it('a second import while one is queued is refused; the file imported again adds nothing', async () => {
    const ola = await mailUser(ctx, 'Ola Twice');
    // No groups, whose unique names would keep the two apart anyway.
    const file = Buffer.from(
      Array.from({ length: 300 }, (_, i) =>
        ['BEGIN:VCARD', 'VERSION:4.0', `FN:Person ${i}`, `EMAIL:person${i}@example.com`, 'END:VCARD'].join(
          '\r\n',
        ),
      ).join('\r\n'),
    );
    const queued = await importFile(ola, file);
    expect(queued.status).toBe(200);
    const second = await importFile(ola, file);
    expect([second.status, second.body.error.meta.i8s]).toEqual([409, 'contact_import_active']);
    await runImports();
    expect(await imported(ola, file)).toMatchObject({ added: 0, unchanged: 300 });
    expect((await api(ola.browser, 'contacts', { query: { size: 1 } })).body.total).toBe(300);
  });

  it('a file that is neither vCard nor CSV, or empty, is refused; more than 5 MB is too large', async () => {
    const jo = await mailUser(ctx, 'Jo Refused');
    for (const file of [Buffer.from('just some text\nwith lines'), Buffer.from([0xff, 0x00, 0x12, 0x80])]) {
      const r = await importFile(jo, file, 'application/octet-stream');
      expect(r.status).toBe(400);
      expect(r.body.error.meta.i8s).toBe('contacts_file_unreadable');
    }
    const empty = await importFile(jo, Buffer.alloc(0), 'text/vcard');
    expect(empty.status).toBe(400);
    const json = await importFile(jo, Buffer.from('{"a":1}'), 'application/json');
    expect(json.status).toBe(400);
    expect((await importFile(jo, Buffer.from('x'), 'text/csv', { format: 'pdf' })).status).toBe(400);
    const big = Buffer.concat([fixture('vcard-3.0.vcf'), Buffer.alloc(5 * 1024 * 1024, 0x20)]);
    const tooLarge = await importFile(jo, big, 'text/vcard');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.meta.i8s).toBe('request_entity_too_large');
    expect(await contactsOf(jo)).toEqual([]);
  });

  it('tells the other tabs that contacts and groups changed, and nothing when nothing did', async () => {
    const kai = await mailUser(ctx, 'Kai Events');
    const during = async (fn: () => Promise<unknown>) => {
      const seen: MailEvent[] = [];
      const stop = ctx.events.subscribe(kai.accountId, (e) => e.event !== 'contactImport' && seen.push(e));
      await fn();
      stop();
      return seen;
    };
    expect(await during(() => imported(kai, fixture('vcard-4.0.vcf')))).toEqual([
      { event: 'updateAccount', part: 'contacts' },
      { event: 'updateAccount', part: 'groups' },
    ]);
    expect(await during(() => imported(kai, fixture('vcard-4.0.vcf')))).toEqual([]);
  });
});

describe('export', () => {
  it('is one vCard 4.0 download with groups as CATEGORIES and every field we do not show', async () => {
    const lu = await mailUser(ctx, 'Lu Export');
    await imported(lu, fixture('vcard-4.0.vcf'));
    const response = await exported(lu);
    expect(response.headers['content-type']).toBe('text/vcard; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="contacts.vcf"; filename*=UTF-8''contacts.vcf`,
    );
    const text = unfolded(response.body);
    expect(text.match(/BEGIN:VCARD/g)).toHaveLength(2);
    expect(text).toMatch(/^BEGIN:VCARD\r\nVERSION:4\.0\r\n/);
    for (const line of [
      'FN:Dr. Olga Kuznetsova',
      'N:Kuznetsova;Olga;Sergeevna;Dr.;',
      'EMAIL;PREF=1:olga@lab.example',
      'EMAIL:olga.k@example.com',
      'NICKNAME:Olya',
      'ADR;TYPE=work:;;Leninsky pr. 32;Moscow;;119334;Russia',
      'ORG:Institute of Examples;Spectroscopy',
      'TITLE:Senior researcher',
      'URL:https://lab.example/olga',
      'BDAY:--0615',
      'ANNIVERSARY:20100712',
      'X-MASTODON:@olga@example.social',
      'TEL;TYPE=work:tel:+7-495-555-0102',
      'UID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1',
      'GENDER:M',
      'LANG;PREF=1:ru',
    ])
      expect(text).toContain(line);
    expect(text).toContain('CATEGORIES:Lab,Science');
  });

  it('a contact with 150,000 stored properties still exports (no spread into the call stack)', async () => {
    const vic = await mailUser(ctx, 'Vic Export');
    await imported(vic, Buffer.from('BEGIN:VCARD\r\nVERSION:4.0\r\nN:Many;Max\r\nEND:VCARD\r\n'));
    // As an import before the limit on properties stored it.
    const many = Array.from({ length: 150_000 }, (_, i) => ['x-p', {}, 'text', String(i)]);
    await ctx.db
      .updateTable('contacts')
      .set({ vcard_properties: JSON.stringify(many) })
      .where('account_id', '=', vic.accountId)
      .execute();
    const text = (await exported(vic)).body;
    expect(text.match(/\r\nX-P[:;]/g)).toHaveLength(150_000);
  }, 120_000);

  it('a photo as a data: URI is written as vCard 4.0 writes a URI, its comma not escaped', async () => {
    const pho = await mailUser(ctx, 'Pho Photo');
    await imported(
      pho,
      Buffer.from(
        'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Photo;Pho\r\nPHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgo=\r\nURL:https://example.com/a,b\r\nEND:VCARD\r\n',
      ),
    );
    const text = unfolded((await exported(pho)).body);
    expect(text).toContain('PHOTO:data:image/png;base64,iVBORw0KGgo=\r\n');
    expect(text).toContain('URL:https://example.com/a,b\r\n');
    // And it reads back the same.
    const other = await mailUser(ctx, 'Pho Again');
    await imported(other, Buffer.from(text));
    expect(unfolded((await exported(other)).body)).toContain('PHOTO:data:image/png;base64,iVBORw0KGgo=\r\n');
  });

  it('round trip: what one account exports, another imports and exports the same', async () => {
    const a = await mailUser(ctx, 'Round A');
    const b = await mailUser(ctx, 'Round B');
    for (const name of [
      'vcard-3.0.vcf',
      'vcard-4.0.vcf',
      'outlook-2.1-windows-1251.vcf',
      'google.csv',
      'outlook.csv',
    ])
      await imported(a, fixture(name), name.endsWith('.csv') ? 'text/csv' : 'text/vcard');
    const first = (await exported(a)).body;
    const result = await imported(b, Buffer.from(first, 'utf8'));
    expect(result.skipped).toEqual([]);
    expect(result.added).toBe((await contactsOf(a)).length);
    const second = (await exported(b)).body;
    expect(second).toBe(first);
    expect(await groupsOf(b)).toEqual(await groupsOf(a));
    // And back into the first account: nothing new.
    expect(await imported(a, Buffer.from(first, 'utf8'))).toEqual(nothingNew(result.added));
  });

  it('one group’s contacts, named after the group', async () => {
    const mo = await mailUser(ctx, 'Mo Group Export');
    await imported(mo, fixture('vcard-3.0.vcf'));
    const groups = (await api(mo.browser, 'groups')).body.groups as {
      id: number;
      name: string;
    }[];
    const colleagues = groups.find((g) => g.name === 'Colleagues')!;
    const response = await exported(mo, { group: colleagues.id });
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Colleagues.vcf"; filename*=UTF-8''Colleagues.vcf`,
    );
    expect(response.body.match(/BEGIN:VCARD/g)).toHaveLength(2);
    expect(response.body).toContain('FN:Мария Иванова');
    expect(response.body).toContain('FN:Chen Lee');
    expect((await apiRequest(mo.browser, 'exportContacts', { query: { group: 99999999 } })).statusCode).toBe(
      404,
    );
    const none = await mailUser(ctx, 'Nobody Export');
    expect((await exported(none)).body).toBe('');
  });
});

describe('a large import runs as a job (issue 28)', () => {
  it('a 157,281-row Google CSV: the request answers at once, the server stays responsive, the rest past the cap is counted', async () => {
    const max = await mailUser(ctx, 'Max Rows');
    const rows = ['Given Name,Family Name,E-mail 1 - Value'];
    for (let i = 0; i < 157_281; i++) rows.push(`G${i},F${i},p${i}@x.example`);
    const file = Buffer.from(rows.join('\n'));
    expect(file.length).toBeGreaterThan(3_000_000);
    expect(file.length).toBeLessThan(5 * 1024 * 1024);

    const asked = performance.now();
    const started = await importFile(max, file, 'text/csv');
    expect(performance.now() - asked).toBeLessThan(2_000);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ state: 'queued', total: 0, done: 0 });

    // While the job runs, a timer and a /healthz/live request go on every 10 ms; the longest wait for either is
    // how long the job held the event loop (before: the whole 69 s).
    let running = true;
    let longestGap = 0;
    let longestAnswer = 0;
    let answers = 0;
    const probe = (async () => {
      let last = performance.now();
      while (running) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        const live = await ctx.app.inject({ method: 'GET', url: '/healthz/live' });
        expect(live.statusCode).toBe(200);
        answers++;
        last = performance.now();
        longestAnswer = Math.max(longestAnswer, last - now);
      }
    })();
    const progress: number[] = [];
    const stop = ctx.events.subscribe(max.accountId, (e) => {
      if (e.event === 'contactImport') progress.push(e.import.done);
    });
    const began = performance.now();
    try {
      while (await runContactImport({ ...jobDeps(), limits: { max: 2_000, maxGroups: 500 } }));
    } finally {
      running = false;
      stop();
      await probe;
    }
    const took = performance.now() - began;
    console.log(
      `157,281-row import: ${Math.round(took)} ms, ${answers} probes, longest gap ${Math.round(longestGap)} ms, ` +
        `longest /healthz/live ${Math.round(longestAnswer)} ms`,
    );
    // ~50 ms is the aim (each slice and batch is cut at 20 ms); the bound leaves room for a shared, loaded test
    // machine and its garbage collector. Before, the loop was held for the whole import (69 s).
    expect(longestGap).toBeLessThan(500);
    expect(longestAnswer).toBeLessThan(500);
    expect(answers).toBeGreaterThan(took / 100);
    // Progress was told as it went.
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toBe(157_281);

    const done = (await api(max.browser, 'contactImport', { params: { id: started.body.id } })).body;
    expect(done).toMatchObject({
      state: 'done',
      total: 157_281,
      done: 157_281,
      added: 2_000,
      over_limit: 155_281,
      skipped_count: 0,
      error: null,
    });
    expect((await api(max.browser, 'contacts', { query: { size: 1 } })).body.total).toBe(2_000);
  }, 240_000);
});

describe('limits on contacts and groups (MAX_CONTACTS, MAX_CONTACT_GROUPS)', () => {
  it(
    'adding past the limit is refused; an import adds up to it and counts the rest; groups the same',
    { timeout: 120_000 },
    async () => {
      const small = await createTestApp({ env: { MAX_CONTACTS: '3', MAX_CONTACT_GROUPS: '2' } });
      const sue = await mailUser(small, 'Sue Small');
      const csv = [
        'Name,E-mail 1 - Value,Group Membership',
        'A One,a@x.example,* myContacts ::: G1 ::: G2 ::: G3 ::: G4',
        'B Two,b@x.example,G1',
        'C Three,c@x.example,',
        'D Four,d@x.example,G5',
        'A One,a@x.example,',
      ].join('\n');
      const response = await small.app.inject({
        method: 'POST',
        url: apiPath('importContacts'),
        headers: {
          host: 'mailroom.localhost',
          origin: 'http://mailroom.localhost',
          'x-mailroom-csrf': '1',
          cookie: [...sue.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'content-type': 'text/csv',
        },
        payload: Buffer.from(csv),
      });
      expect(response.statusCode).toBe(200);
      const deps = {
        db: small.db,
        blobs: small.blobs,
        events: small.events,
        log: pino({ level: 'silent' }),
        limits: small.config.contacts,
      };
      while (await runContactImport(deps));
      const job = (await api(sue.browser, 'contactImport', { params: { id: response.json().id } })).body;
      expect(job).toMatchObject({
        state: 'done',
        added: 3,
        unchanged: 1,
        over_limit: 1,
        groups_added: 2,
        groups_over_limit: 2,
      });
      const more = await api(sue.browser, 'createContact', { body: { name: 'E', emails: ['e@x.example'] } });
      expect([more.status, more.body.error.meta.i8s]).toEqual([409, 'contacts_limit_reached']);
      const group = await api(sue.browser, 'createGroup', { body: { name: 'Another' } });
      expect([group.status, group.body.error.meta.i8s]).toEqual([409, 'contact_groups_limit_reached']);
      // Room again once one goes.
      const { contacts } = (await api(sue.browser, 'contacts', { query: { size: 10 } })).body as {
        contacts: Contact[];
      };
      expect((await api(sue.browser, 'deleteContact', { params: { id: contacts[0]!.id } })).status).toBe(200);
      expect(
        (await api(sue.browser, 'createContact', { body: { name: 'E', emails: ['e@x.example'] } })).status,
      ).toBe(200);
    },
  );
});
