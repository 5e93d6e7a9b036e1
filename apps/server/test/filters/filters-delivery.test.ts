import { beforeAll, describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { smtpTransport, startTestIngest } from '../_smtp.js';
import { api } from '../_client.js';

const ctx = await createTestApp();
const ingest = await startTestIngest({ db: ctx.db });
const smtp = smtpTransport(ingest.port);
let ann: MailUser;
let financeId: number;
let invoicesId: number;

beforeAll(async () => {
  ann = await mailUser(ctx, 'Ann Delivery');
  const label = await api(ann.browser, 'createLabel', {
    body: {
      label: { name: 'Finance', search_content: 'x' },
    },
  });
  financeId = label.body.label.id;
  const folder = await api(ann.browser, 'createFolder', {
    body: {
      folder: { name: 'Invoices', parent_id: null },
    },
  });
  invoicesId = folder.body.folder.id;
});

async function saveRules(user: MailUser, filters: { name: string; rules: string; enabled?: boolean }[]) {
  const saved = await api(user.browser, 'saveFilters', { body: { filters } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body.sieve_filter;
}

/** Every stored copy of messages with this subject: folder name, flags, labels. */
async function copiesOf(accountId: number, subject: string) {
  return ctx.db
    .selectFrom('messages')
    .innerJoin('folders', 'folders.id', 'messages.folder_id')
    .select(['folders.name as folder', 'messages.seen', 'messages.flagged', 'messages.labels'])
    .where('messages.account_id', '=', accountId)
    .where('messages.subject', '=', subject)
    .orderBy('folders.name')
    .execute();
}

const send = (options: Parameters<typeof smtp.sendMail>[0]) =>
  smtp.sendMail({ to: ann.email, text: 'Hello', ...options });

describe('filters at delivery', () => {
  it('a message from billing lands in Invoices, read and labelled Finance; other mail stays in the Inbox', async () => {
    await saveRules(ann, [
      {
        name: 'Invoices',
        rules:
          'if address :is "from" "billing@example.com"\n{\n\taddflag ["\\\\Seen", "finance"];\n\tfileinto "Invoices";\n}',
      },
    ]);
    const received: MailEvent[] = [];
    ingest.events.subscribe(ann.accountId, (e) => received.push(e));
    const info = await send({ from: 'Billing <billing@example.com>', subject: 'Invoice 1' });
    expect(info.response).toMatch(/^250 /);
    expect(await copiesOf(ann.accountId, 'Invoice 1')).toEqual([
      { folder: 'INBOX.Invoices', seen: true, flagged: false, labels: [financeId] },
    ]);
    expect(received).toContainEqual(expect.objectContaining({ event: 'new', folder_id: invoicesId }));
    await send({ from: 'friend@example.com', subject: 'Hi there' });
    expect(await copiesOf(ann.accountId, 'Hi there')).toEqual([
      { folder: 'INBOX', seen: false, flagged: false, labels: [] },
    ]);
  });

  it('discard stores nothing and still answers 250', async () => {
    await saveRules(ann, [
      { name: 'Spam', rules: 'if header :contains "subject" "[SPAM]" { discard; stop; }' },
    ]);
    const info = await send({ from: 'spammer@example.com', subject: 'Cheap [SPAM] pills' });
    expect(info.response).toMatch(/^250 /);
    expect(await copiesOf(ann.accountId, 'Cheap [SPAM] pills')).toEqual([]);
  });

  it('fileinto :create makes the folder path; two fileintos and :copy store a copy in each place', async () => {
    await saveRules(ann, [
      {
        name: 'Lists',
        rules:
          'if envelope :is "from" "bounces@lists.example.org"\n{\n\tfileinto :create "Lists/dev";\n\tfileinto "Invoices";\n\taddflag "\\\\Flagged";\n\tfileinto :copy "INBOX";\n}',
      },
    ]);
    const received: MailEvent[] = [];
    ingest.events.subscribe(ann.accountId, (e) => received.push(e));
    await smtp.sendMail({
      envelope: { from: 'bounces@lists.example.org', to: [ann.email] },
      from: 'dev@lists.example.org',
      to: ann.email,
      subject: 'Release 2.0',
      text: 'Out now',
    });
    expect(await copiesOf(ann.accountId, 'Release 2.0')).toEqual([
      { folder: 'INBOX', seen: false, flagged: true, labels: [] },
      { folder: 'INBOX.Invoices', seen: false, flagged: false, labels: [] },
      { folder: 'INBOX.Lists.dev', seen: false, flagged: false, labels: [] },
    ]);
    expect(received).toContainEqual({ event: 'updateMailboxList' });
    const tree = await api(ann.browser, 'folders');
    expect(JSON.stringify(tree.body)).toContain('INBOX.Lists.dev');
  });

  it('a runtime error keeps the message in the Inbox as if no filter ran, and the filters screen says why', async () => {
    await saveRules(ann, [
      { name: 'Harmless', rules: 'if false { keep; }' },
      { name: 'Projects', rules: 'if header :contains "subject" "project" {\n\tfileinto "Projects";\n}' },
    ]);
    const info = await send({ from: 'boss@example.com', subject: 'New project' });
    expect(info.response).toMatch(/^250 /);
    expect(await copiesOf(ann.accountId, 'New project')).toEqual([
      { folder: 'INBOX', seen: false, flagged: false, labels: [] },
    ]);
    const { body } = await api(ann.browser, 'filters');
    expect(body.sieve_filter.errors[0]).toMatchObject({
      filter: 'Projects',
      message: expect.stringMatching(/"Projects" does not exist/),
    });
  });

  it('keeps only the newest 20 errors', async () => {
    await saveRules(ann, [{ name: 'Nowhere', rules: 'fileinto "Nowhere";' }]);
    for (let i = 0; i < 22; i++) await send({ from: 'a@example.com', subject: `Lost ${i}` });
    const { body } = await api(ann.browser, 'filters');
    expect(body.sieve_filter.errors).toHaveLength(20);
    expect(await copiesOf(ann.accountId, 'Lost 21')).toHaveLength(1);
  });

  it("another account's filter does not touch a message delivered to both, each filtered by its own", async () => {
    const bob = await mailUser(ctx, 'Bob Delivery');
    await saveRules(ann, [{ name: 'All read', rules: 'addflag "\\\\Seen";' }]);
    await saveRules(bob, [{ name: 'Drop', rules: 'discard;' }]);
    await smtp.sendMail({
      from: 'x@example.com',
      to: [ann.email, bob.email],
      subject: 'For both',
      text: 'Hi',
    });
    expect(await copiesOf(ann.accountId, 'For both')).toEqual([
      { folder: 'INBOX', seen: true, flagged: false, labels: [] },
    ]);
    expect(await copiesOf(bob.accountId, 'For both')).toEqual([]);
  });

  it('a body test sees the decoded text of the message (its parts read only when a body test runs)', async () => {
    await saveRules(ann, [
      {
        name: 'Newsletters',
        rules: 'if body :text :contains "отписаться" {\n\tfileinto :create "Newsletters";\n}',
      },
    ]);
    await send({ from: 'news@example.com', subject: 'Weekly', text: 'Чтобы отписаться, нажмите здесь.' });
    await send({ from: 'news@example.com', subject: 'Monthly', text: 'Nothing to see.' });
    expect(await copiesOf(ann.accountId, 'Weekly')).toEqual([
      { folder: 'INBOX.Newsletters', seen: false, flagged: false, labels: [] },
    ]);
    expect(await copiesOf(ann.accountId, 'Monthly')).toEqual([
      { folder: 'INBOX', seen: false, flagged: false, labels: [] },
    ]);
  });

  it('a large message is filtered from its spool file: its header, and a body test over its first 4 MiB', async () => {
    await saveRules(ann, [
      {
        name: 'Scans',
        rules:
          'if allof (header :contains "subject" "Scan", body :text :contains "scanned copy") {\n\tfileinto :create "Scans";\n}',
      },
    ]);
    // A message over the spool's in-memory size: its filters read the file, not a copy held whole.
    const attachment = Buffer.alloc(600_000, 'a');
    const mail = {
      from: 'scanner@example.com',
      attachments: [{ filename: 'scan.bin', content: attachment }],
    };
    await send({ ...mail, subject: 'Scan 1', text: 'The scanned copy you asked for.' });
    await send({ ...mail, subject: 'Scan 2', text: 'Nothing here.' });
    // A body test sees the first 4 MiB only: words after them are not matched.
    await send({
      from: 'scanner@example.com',
      subject: 'Scan 3',
      text: 'Nothing here.',
      attachments: [
        { filename: 'big.bin', content: Buffer.alloc(5 * 1024 * 1024, 'b') },
        { filename: 'note.txt', content: 'the scanned copy', contentType: 'text/plain' },
      ],
    });
    expect(await copiesOf(ann.accountId, 'Scan 1')).toEqual([
      { folder: 'INBOX.Scans', seen: false, flagged: false, labels: [] },
    ]);
    expect(await copiesOf(ann.accountId, 'Scan 2')).toEqual([
      { folder: 'INBOX', seen: false, flagged: false, labels: [] },
    ]);
    expect(await copiesOf(ann.accountId, 'Scan 3')).toEqual([
      { folder: 'INBOX', seen: false, flagged: false, labels: [] },
    ]);
  });
});
