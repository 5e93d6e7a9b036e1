import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { api } from '../_client.js';

const ctx = await createTestApp();
let ann: MailUser;

beforeAll(async () => {
  ann = await mailUser(ctx, 'Ann Filters');
});

const invoices = {
  name: 'Invoices',
  // Flags reach the actions after them: addflag comes before fileinto.
  rules: 'if address :is "from" "billing@example.com"\n{\n\taddflag "\\\\Seen";\n\tfileinto "Invoices";\n}',
};
const away = { name: 'Away', rules: 'vacation :days 3 :subject "Away" "I am away.";', enabled: false };

describe('filters: stored as one script', () => {
  it('an account without filters has an empty script at version 0', async () => {
    const bob = await mailUser(ctx, 'Bob Filters');
    const { status, body } = await api(bob.browser, 'filters');
    expect(status).toBe(200);
    expect(body.sieve_filter).toEqual({ filters: [], script: '', version: 0, errors: [] });
  });

  it('a saved list comes back in its order, as a script with the require line its rules need', async () => {
    const saved = await api(ann.browser, 'saveFilters', { body: { version: 0, filters: [invoices, away] } });
    expect(saved.status).toBe(200);
    const state = saved.body.sieve_filter;
    expect(state.version).toBe(1);
    expect(state.filters).toEqual([
      { id: 1, name: 'Invoices', rules: invoices.rules, enabled: true },
      { id: 2, name: 'Away', rules: away.rules, enabled: false },
    ]);
    expect(state.script).toBe(
      'require ["fileinto","imap4flags","vacation"];\n' +
        `# rule:[Invoices]\n${invoices.rules}\n` +
        `# rule:[Away]\n#${away.rules}\n`,
    );
    expect((await api(ann.browser, 'filters')).body.sieve_filter).toEqual(state);
  });

  it('a save made from an older version is refused, so another window’s changes are not lost', async () => {
    const { body: before } = await api(ann.browser, 'filters');
    const stale = await api(ann.browser, 'saveFilters', {
      body: {
        version: before.sieve_filter.version - 1,
        filters: [invoices],
      },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.meta.i8s).toBe('filters_changed');
    expect((await api(ann.browser, 'filters')).body.sieve_filter.version).toBe(before.sieve_filter.version);
  });

  it('a filter without a name, or whose rules do not compile, is refused with where the error is', async () => {
    const noName = await api(ann.browser, 'saveFilters', {
      body: { filters: [{ ...invoices, name: '  ' }] },
    });
    expect(noName.status).toBe(400);
    expect(noName.body.error.meta.i8s).toBe('filter_name_is_empty');
    const broken = await api(ann.browser, 'saveFilters', {
      body: {
        filters: [invoices, { name: 'Broken', rules: 'if header :is "subject" {\n  keep;\n}' }],
      },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error.meta.i8s).toBe('sieve_syntax_error');
    expect(broken.body.error.message).toMatch(/"Broken": line 1, column \d+: /);
    const raw = await api(ann.browser, 'saveFilters', { body: { script: 'fileinto "x";' } });
    expect(raw.body.error.meta.i8s).toBe('sieve_syntax_error');
    expect(raw.body.error.message).toMatch(/line 1, column 1: .*require "fileinto"/);
  });

  it('a hand-written script is kept as written, and read as one filter named by its first comment', async () => {
    const carol = await mailUser(ctx, 'Carol Filters');
    const script = 'require ["fileinto"];\n# Lists\nif exists "list-id" { fileinto "Lists"; }\n';
    const saved = await api(carol.browser, 'saveFilters', { body: { script } });
    expect(saved.status).toBe(200);
    expect(saved.body.sieve_filter.script).toBe(script);
    expect(saved.body.sieve_filter.filters).toEqual([
      { id: 1, name: 'Lists', rules: '# Lists\nif exists "list-id" { fileinto "Lists"; }', enabled: true },
    ]);
    // Saving the list again writes the Roundcube form, the preamble and the order kept.
    const again = await api(carol.browser, 'saveFilters', {
      body: {
        version: 1,
        filters: saved.body.sieve_filter.filters,
      },
    });
    expect(again.body.error).toBeUndefined();
    expect(again.body.sieve_filter.script).toBe(
      'require ["fileinto"];\n# rule:[Lists]\n# Lists\nif exists "list-id" { fileinto "Lists"; }\n',
    );
  });

  it('validates a rule as if it required what it uses, and a whole script as written', async () => {
    const rule = await api(ann.browser, 'validateFilter', { body: { script: invoices.rules } });
    expect(rule.body).toEqual({ errors: [] });
    const bad = await api(ann.browser, 'validateFilter', { body: { script: 'if true {\n  fileinto ;\n}' } });
    expect(bad.status).toBe(200);
    expect(bad.body.errors).toHaveLength(1);
    expect(bad.body.errors[0]).toMatchObject({ line: 2 });
    const script = await api(ann.browser, 'validateFilter', {
      body: {
        script: 'require "fileinto";\nif true { addflag "x"; }',
      },
    });
    expect(script.body.errors[0].message).toMatch(/require "imap4flags"/);
  });

  it("tests rules against a stored message, with the account's folders, and changes nothing", async () => {
    await ann.deliver({ from: 'billing@example.com', subject: 'Invoice 7', text: 'Pay.' });
    const request = { script: invoices.rules, folder_id: ann.folders.inbox, uid: 1 };
    const missing = await api(ann.browser, 'testFilter', { body: request });
    expect(missing.body).toMatchObject({
      status: 'failed',
      actions: [],
      implicit_keep: { flags: [] },
      error: { line: 4, message: expect.stringMatching(/"Invoices" does not exist/) },
    });
    const folder = await api(ann.browser, 'createFolder', {
      body: {
        folder: { name: 'Invoices', parent_id: null },
      },
    });
    expect(folder.status).toBe(200);
    const test = await api(ann.browser, 'testFilter', { body: request });
    expect(test.status).toBe(200);
    expect(test.body).toEqual({
      status: 'success',
      actions: [{ type: 'fileinto', mailbox: 'Invoices', create: false, copy: false, flags: ['\\Seen'] }],
      implicit_keep: null,
      error: null,
    });
    const compileError = await api(ann.browser, 'testFilter', {
      body: {
        script: 'if {',
        folder_id: ann.folders.inbox,
        uid: 1,
      },
    });
    expect(compileError.body).toMatchObject({ status: 'compile-error', error: { line: 1 } });
    const message = await ctx.db
      .selectFrom('messages')
      .select(['folder_id', 'seen'])
      .where('account_id', '=', ann.accountId)
      .executeTakeFirstOrThrow();
    expect(message).toEqual({ folder_id: ann.folders.inbox, seen: false });
    const other = await mailUser(ctx, 'Dan Filters');
    const foreign = await api(other.browser, 'testFilter', {
      body: {
        script: 'keep;',
        folder_id: ann.folders.inbox,
        uid: 1,
      },
    });
    expect(foreign.status).toBe(404);
  });
});
