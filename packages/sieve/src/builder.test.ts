import { describe, expect, it } from 'vitest';
import {
  builderActionTypes,
  builderFromSieve,
  builderRequires,
  orderedActions,
  sieveFromBuilder,
  validateBuilderRule,
  type BuilderAction,
  type BuilderCondition,
  type BuilderRule,
} from './builder.js';
import { compile } from './compile.js';
import type { SieveHost } from './host.js';
import { evaluate, formatResult } from './index.js';

/** The whole script the server would store for one rule: its requires, then the block. */
function script(rule: BuilderRule): string {
  const requires = builderRequires(rule);
  return `${requires.length ? `require ${JSON.stringify(requires)};\n` : ''}${sieveFromBuilder(rule)}`;
}

function host(headers: [string, string][], raw = 'Hello there', size = 1000): SieveHost {
  return {
    headers: () => headers.map(([name, value]) => ({ name, value })),
    size: () => size,
    rawBody: () => raw,
    bodyParts: () => [{ contentType: 'text/plain', text: raw }],
    envelope: () => ({ from: 'sender@example.org', to: 'me@example.com' }),
    mailboxExists: () => true,
    now: () => new Date('2026-11-24T10:00:00Z'),
  };
}

const outcome = (rule: BuilderRule, headers: [string, string][], raw?: string, size?: number) =>
  formatResult(evaluate(script(rule), host(headers, raw, size)));

const billing: BuilderRule = {
  match: 'all',
  conditions: [{ field: 'from', op: 'contains', value: 'billing@x', negate: false }],
  actions: [{ type: 'move', folder: 'Invoices' }, { type: 'read' }, { type: 'label', label: 'Finance' }],
};

describe('filter builder', () => {
  it('writes "from billing → Invoices, read, Finance" as one block with its test on one line', () => {
    expect(sieveFromBuilder(billing)).toBe(
      'if allof (address :contains "from" "billing@x")\n{\n\taddflag "\\\\Seen";\n\taddflag "Finance";\n\tfileinto "Invoices";\n}\n',
    );
    expect(builderRequires(billing)).toEqual(['fileinto', 'imap4flags']);
  });

  it('a message from billing is filed into Invoices, read and labelled; another one is kept', () => {
    expect(outcome(billing, [['From', 'Billing <billing@x.example>']])).toEqual([
      'status=success',
      'fileinto "Invoices" flags=Finance,\\Seen',
    ]);
    expect(outcome(billing, [['From', 'friend@y.example']])).toEqual(['status=success', 'implicit-keep']);
  });

  it('"starts with" and "ends with" take the text literally, wildcards and all', () => {
    const starts: BuilderRule = {
      match: 'all',
      conditions: [{ field: 'subject', op: 'starts', value: 'a*b?\\', negate: false }],
      actions: [{ type: 'flag' }],
    };
    expect(sieveFromBuilder(starts)).toContain('header :matches "subject" "a\\\\*b\\\\?\\\\\\\\*"');
    expect(outcome(starts, [['Subject', 'a*b?\\ and more']])).toEqual([
      'status=success',
      'implicit-keep flags=\\Flagged',
    ]);
    expect(outcome(starts, [['Subject', 'aXbY\\ and more']])).toEqual(['status=success', 'implicit-keep']);
    const ends: BuilderRule = {
      ...starts,
      conditions: [{ ...starts.conditions[0]!, op: 'ends', value: '[x]' }],
    };
    expect(outcome(ends, [['Subject', 'report [x]']])).toEqual([
      'status=success',
      'implicit-keep flags=\\Flagged',
    ]);
    expect(outcome(ends, [['Subject', '[x] report']])).toEqual(['status=success', 'implicit-keep']);
  });

  it('any of several conditions, negation, size and has-attachment', () => {
    const rule: BuilderRule = {
      match: 'any',
      conditions: [
        { field: 'size', op: 'over', value: '1M', negate: false },
        { field: 'attachment', op: 'contains', value: '', negate: false },
        { field: 'to_cc', op: 'is', value: 'team@x.example', negate: true },
      ],
      actions: [{ type: 'copy', folder: 'Big' }, { type: 'stop' }],
    };
    expect(sieveFromBuilder(rule).split('\n')[0]).toBe(
      'if anyof (size :over 1M, body :raw :contains "Content-Disposition: attachment", not address :is ["to","cc"] "team@x.example")',
    );
    const toTeam: [string, string][] = [['To', 'team@x.example']];
    expect(outcome(rule, toTeam, 'small')).toEqual(['status=success', 'implicit-keep']);
    expect(outcome(rule, toTeam, 'x', 2 * 1024 * 1024)).toEqual([
      'status=success',
      'fileinto "Big"',
      'implicit-keep',
    ]);
    const withFile =
      '--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename="a.pdf"\r\n\r\nJVBER\r\n--b--\r\n';
    expect(outcome(rule, toTeam, withFile)).toEqual(['status=success', 'fileinto "Big"', 'implicit-keep']);
    expect(outcome(rule, [['To', 'other@x.example']], 'small')).toEqual([
      'status=success',
      'fileinto "Big"',
      'implicit-keep',
    ]);
  });

  it('forward, reply, reject and delete become redirect, vacation, reject and discard', () => {
    const rule = (action: BuilderAction): BuilderRule => ({
      match: 'all',
      conditions: [],
      actions: [action],
    });
    expect(sieveFromBuilder(rule({ type: 'forward', address: 'me@y.example', keepCopy: true }))).toBe(
      'if true\n{\n\tredirect :copy "me@y.example";\n}\n',
    );
    const reply = rule({ type: 'reply', subject: 'Away "now"', text: 'Back on Monday.\nRegards', days: 3 });
    expect(sieveFromBuilder(reply)).toContain(
      'vacation :days 3 :subject "Away \\"now\\"" "Back on Monday.\nRegards";',
    );
    expect(outcome(reply, [['From', 'a@b.example']])).toEqual([
      'status=success',
      'vacation subject="Away \\"now\\"" seconds=259200',
      'implicit-keep',
    ]);
    expect(outcome(rule({ type: 'reject', reason: 'No thanks' }), [])).toEqual([
      'status=success',
      'reject "No thanks"',
    ]);
    expect(outcome(rule({ type: 'delete' }), [])).toEqual(['status=success', 'discard']);
  });

  it('refuses what it cannot write, saying what and where', () => {
    const rule: BuilderRule = {
      match: 'all',
      conditions: [
        { field: 'subject', op: 'contains', value: '', negate: false },
        { field: 'body', op: 'contains', value: 'two\nlines', negate: false },
        { field: 'size', op: 'over', value: '10 X', negate: false },
        { field: 'header', header: 'Bad Name', op: 'is', value: 'x', negate: false },
      ],
      actions: [
        { type: 'move', folder: ' ' },
        { type: 'forward', address: 'not an address', keepCopy: false },
        { type: 'reply', subject: '', text: 'x', days: 0 },
        { type: 'label', label: 'Q1 reports' },
      ],
    };
    expect(validateBuilderRule(rule)).toEqual([
      { kind: 'value_empty', part: 'condition', index: 0 },
      { kind: 'value_line_break', part: 'condition', index: 1 },
      { kind: 'size_invalid', part: 'condition', index: 2 },
      { kind: 'header_invalid', part: 'condition', index: 3 },
      { kind: 'folder_empty', part: 'action', index: 0 },
      { kind: 'address_invalid', part: 'action', index: 1 },
      { kind: 'days_invalid', part: 'action', index: 2 },
      { kind: 'label_spaces', part: 'action', index: 3 },
    ]);
    expect(validateBuilderRule({ match: 'all', conditions: [], actions: [] })).toEqual([
      { kind: 'no_actions', part: 'rule', index: 0 },
    ]);
    expect(() => sieveFromBuilder({ match: 'all', conditions: [], actions: [] })).toThrow(/no_actions/);
  });

  it('reads back what it wrote, even re-indented, with the flags set before the message is moved', () => {
    const written = { ...billing, actions: orderedActions(billing.actions) };
    expect(written.actions.map((a) => a.type)).toEqual(['read', 'label', 'move']);
    expect(builderFromSieve(sieveFromBuilder(billing))).toEqual(written);
    expect(
      builderFromSieve(
        'if allof (address :contains "from" "billing@x") { addflag "\\\\Seen"; addflag "Finance"; fileinto "Invoices"; }',
      ),
    ).toEqual(written);
    // Set after the move, the flags would not reach the moved message: not the builder's form.
    expect(
      builderFromSieve(
        'if allof (address :contains "from" "billing@x") { fileinto "Invoices"; addflag "\\\\Seen"; }',
      ),
    ).toBeNull();
  });

  it('anything the builder did not write opens in the raw editor (null)', () => {
    const written = sieveFromBuilder(billing);
    for (const text of [
      '# mine\n' + written,
      written.replace('"Finance";', '"Finance"; # label'),
      written.replace('allof', 'ALLOF'),
      written.replace('address :contains "from"', 'address :contains "From"'),
      written.replace('address :contains "from"', 'address :all :contains "from"'),
      written.replace('address :contains', 'address :domain :contains'),
      written + 'keep;\n',
      written.replace('if allof', 'if anyof (true) {} elsif allof'),
      'if allof (address :contains "from" "x") { if true { stop; } }',
      'if header :contains "subject" "x" { stop; }',
      'if allof (size :over 1024) { stop; }',
      'if allof (exists "x") { stop; }',
      'if allof (header :contains "subject" "x") { fileinto :create "A"; }',
      'if allof (header :contains "subject" "x") { addflag ["a","b"]; }',
      'if allof (header :contains "subject" "x") { keep; }',
      'if allof (header :contains "subject" "x") { fileinto "" ; }',
      'if allof (header :contains "subject" text:\nx\n.\n) { stop; }',
      'if allof (header :contains "subject" "x") { stop; ',
      '',
    ]) {
      expect(builderFromSieve(text), text).toBeNull();
    }
  });

  it('round trip: every rule it writes compiles and reads back as the same rule (seeded random rules)', () => {
    let seed = 20261124;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const texts = ['billing@x', 'Счёт №5', 'a "quoted" \\ back', 'star*and?', 'line\nbreak', ' spaced ', 'x'];
    const text = () => pick(texts);
    const oneLine = () => pick(texts.filter((t) => !t.includes('\n')));
    const condition = (): BuilderCondition => {
      const negate = random() < 0.3;
      const field = pick(['from', 'to_cc', 'subject', 'header', 'body', 'size', 'attachment'] as const);
      if (field === 'size')
        return {
          field,
          op: pick(['over', 'under'] as const),
          value: pick(['0', '7', '5K', '3M', '1G']),
          negate,
        };
      if (field === 'attachment') return { field, op: 'contains', value: '', negate };
      const op = pick(['contains', 'is', 'matches', 'starts', 'ends', 'regex'] as const);
      // A "matches" pattern with one wildcard at an end is the same test as starts/ends and reads back as that.
      const value =
        op === 'matches'
          ? pick(['a*b', '*x*', '?', 'a?c*d'])
          : op === 'regex'
            ? pick(['^a+b$', 'x|y', '[0-9]{3}'])
            : oneLine();
      return field === 'header'
        ? { field, header: pick(['X-Spam', 'List-Id']), op, value, negate }
        : { field, op, value, negate };
    };
    const action = (): BuilderAction => {
      switch (pick(builderActionTypes)) {
        case 'move':
          return { type: 'move', folder: pick(['INBOX.Invoices', 'Счета', 'a "b"']) };
        case 'copy':
          return { type: 'copy', folder: 'Archive' };
        case 'label':
          return { type: 'label', label: pick(['Finance', 'Работа']) };
        case 'read':
          return { type: 'read' };
        case 'flag':
          return { type: 'flag' };
        case 'forward':
          return { type: 'forward', address: 'me@y.example', keepCopy: random() < 0.5 };
        case 'reply':
          return {
            type: 'reply',
            subject: pick(['', 'Away']),
            text: text(),
            days: 1 + Math.floor(random() * 30),
          };
        case 'reject':
          return { type: 'reject', reason: text() };
        case 'delete':
          return { type: 'delete' };
        case 'stop':
          return { type: 'stop' };
      }
    };
    for (let n = 0; n < 300; n++) {
      const rule: BuilderRule = {
        match: pick(['all', 'any'] as const),
        conditions: Array.from({ length: Math.floor(random() * 4) }, condition),
        actions: Array.from({ length: 1 + Math.floor(random() * 3) }, action),
      };
      if (rule.conditions.length === 0) rule.match = 'all';
      const text = sieveFromBuilder(rule);
      expect(() => compile(script(rule)), text).not.toThrow();
      expect(builderFromSieve(text), text).toEqual({ ...rule, actions: orderedActions(rule.actions) });
    }
  });
});
