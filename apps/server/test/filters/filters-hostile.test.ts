import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { smtpTransport, startTestIngest } from '../_smtp.js';
import { api } from '../_client.js';

// Scripts written to hurt: each is refused when saved, or bounded when it runs, and the server keeps answering.
const ctx = await createTestApp();
const ingest = await startTestIngest({ db: ctx.db });
const smtp = smtpTransport(ingest.port);
let eve: MailUser;

beforeAll(async () => {
  eve = await mailUser(ctx, 'Eve Hostile');
});

const saveScript = (script: string) => api(eve.browser, 'saveFilters', { body: { script } });

describe('hostile filter scripts', () => {
  it('a 10 MB script is refused before it is read whole, and the saved filters stay as they were', async () => {
    const before = await api(eve.browser, 'filters');
    const huge = `# rule:[Huge]\nif header :contains "subject" "${'x'.repeat(10 * 2 ** 20)}" { discard; }\n`;
    const { status, body } = await saveScript(huge);
    expect(status).toBe(413);
    expect(body.error.meta.i8s).toBe('request_entity_too_large');
    expect((await api(eve.browser, 'filters')).body).toEqual(before.body);
  });

  it('nesting deeper than the limit is refused with the line where it goes too deep', async () => {
    const deep = `${'if true {\n'.repeat(40)}discard;\n${'}\n'.repeat(40)}`;
    const { status, body } = await saveScript(`# rule:[Deep]\n${deep}`);
    expect(status).toBe(400);
    expect(body.error.meta.i8s).toBe('sieve_syntax_error');
    expect(body.error.message).toMatch(/line \d+, column \d+/);
  });

  it('a catastrophic regex and a wildcard pattern over a large message: delivered in bounded time, requests answered meanwhile', async () => {
    const saved = await saveScript(
      [
        'require ["body", "regex", "fileinto", "mailbox"];',
        '# rule:[Regex]',
        'if body :raw :regex "(a+)+$" { fileinto :create "Caught"; }',
        '# rule:[Wildcards]',
        `if body :raw :matches "${'*a'.repeat(50)}b" { fileinto :create "Caught"; }`,
        '',
      ].join('\n'),
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const started = performance.now();
    const delivery = smtp.sendMail({
      from: 'x@example.com',
      to: eve.email,
      subject: 'aaaa',
      text: `${'a'.repeat(76)}\n`.repeat(6_000),
    });
    // While the message is filtered, the API still answers.
    const answered: number[] = [];
    while (answered.length < 3) {
      const t = performance.now();
      expect((await api(eve.browser, 'folders')).status).toBe(200);
      answered.push(performance.now() - t);
    }
    expect((await delivery).response).toMatch(/^250 /);
    expect(performance.now() - started).toBeLessThan(30_000);
    // Neither pattern matches (the body ends in a line break, and has no "b"): the message is in the Inbox.
    const rows = await ctx.db
      .selectFrom('messages')
      .innerJoin('folders', 'folders.id', 'messages.folder_id')
      .select('folders.system')
      .where('messages.account_id', '=', eve.accountId)
      .where('messages.subject', '=', 'aaaa')
      .execute();
    expect(rows).toEqual([{ system: 'inbox' }]);
    for (const ms of answered) expect(ms).toBeLessThan(10_000);
  });
});
