import { describe, expect, it } from 'vitest';
import type { BodyPart, HeaderField, SieveHost } from './host.js';
import { evaluate, formatResult } from './index.js';
import type { SieveLimits } from './limits.js';

interface Message {
  headers?: [string, string][];
  parts?: BodyPart[];
  raw?: string;
  size?: number;
  from?: string;
  to?: string;
  folders?: string[];
  now?: Date;
}

/** A host over a message given as data: the same questions delivery answers from a parsed message. */
function host(m: Message = {}): SieveHost {
  const headers: HeaderField[] = (m.headers ?? [['Subject', 'Hello']]).map(([name, value]) => ({
    name,
    value,
  }));
  return {
    headers: () => headers,
    size: () => m.size ?? 1000,
    rawBody: () => m.raw ?? m.parts?.map((p) => p.text).join('\r\n') ?? '',
    bodyParts: () => m.parts ?? [{ contentType: 'text/plain', text: m.raw ?? '' }],
    envelope: () => ({ from: m.from ?? 'sender@example.org', to: m.to ?? 'me@example.com' }),
    mailboxExists: (name) => !m.folders || m.folders.includes(name),
    now: () => m.now ?? new Date('2026-11-24T10:00:00Z'),
  };
}

const outcome = (script: string, m?: Message, limits?: Partial<SieveLimits>) =>
  formatResult(evaluate(script, host(m), limits));

describe('sieve core', () => {
  it('an empty script keeps the message implicitly', () => {
    expect(outcome('')).toEqual(['status=success', 'implicit-keep']);
  });

  it('fileinto cancels the implicit keep and fileinto :copy does not', () => {
    expect(outcome('require "fileinto"; fileinto "Work";')).toEqual(['status=success', 'fileinto "Work"']);
    expect(outcome('require ["fileinto","copy"]; fileinto :copy "Work";')).toEqual([
      'status=success',
      'fileinto "Work"',
      'implicit-keep',
    ]);
  });

  it('fileinto "INBOX" is printed as keep and merges with keep', () => {
    expect(outcome('require "fileinto"; fileinto "INBOX"; keep;')).toEqual(['status=success', 'keep']);
  });

  it('if/elsif/else runs the first branch whose test holds', () => {
    const script = `require "fileinto";
      if header :contains "subject" "nothing" { fileinto "A"; }
      elsif header :is "subject" "hello" { fileinto "B"; }
      else { fileinto "C"; }`;
    expect(outcome(script)).toEqual(['status=success', 'fileinto "B"']);
  });

  it('stop ends the script and the implicit keep still applies', () => {
    expect(outcome('require "fileinto"; stop; fileinto "A";')).toEqual(['status=success', 'implicit-keep']);
  });

  it('discard drops the message; discard twice is one action', () => {
    expect(outcome('discard; discard;')).toEqual(['status=success', 'discard']);
  });

  it('exists, size, allof, anyof, not and true/false combine', () => {
    const script = `require "fileinto";
      if allof (exists ["Subject"], not exists "X-Missing", size :under 2K, anyof (false, true)) { fileinto "Yes"; }`;
    expect(outcome(script)).toEqual(['status=success', 'fileinto "Yes"']);
    expect(outcome('if size :over 1000 { discard; }', { size: 1000 })).toEqual([
      'status=success',
      'implicit-keep',
    ]);
  });

  it('header values are unfolded and RFC 2047 decoded, windows-1251 included', () => {
    const m: Message = {
      headers: [
        [
          'Subject',
          '=?windows-1251?B?0e/g8ejh7g==?=\r\n =?UTF-8?Q?_=D0=B7=D0=B0_=D0=BF=D0=B8=D1=81=D1=8C=D0=BC=D0=BE?=',
        ],
      ],
    };
    expect(outcome('if header :is "subject" "Спасибо за письмо" { discard; }', m)).toEqual([
      'status=success',
      'discard',
    ]);
  });

  it('the default comparator folds ASCII case only; i;octet is exact', () => {
    expect(outcome('if header :is "subject" "HELLO" { discard; }')).toContain('discard');
    expect(outcome('if header :is :comparator "i;octet" "subject" "HELLO" { discard; }')).not.toContain(
      'discard',
    );
    const ru: Message = { headers: [['Subject', 'Привет']] };
    expect(outcome('if header :is "subject" "привет" { discard; }', ru)).not.toContain('discard');
  });

  it(':matches handles * and ? and escapes', () => {
    expect(outcome('if header :matches "subject" "H?l*" { discard; }')).toContain('discard');
    expect(outcome('if header :matches "subject" "H\\\\*" { discard; }')).not.toContain('discard');
    expect(
      outcome('if header :matches "subject" "*" { discard; }', { headers: [['Subject', '']] }),
    ).toContain('discard');
  });

  it('address parts pick the local part, the domain, or the whole address without the name', () => {
    const m: Message = { headers: [['From', '"Lee, Ann" <Ann.Lee+bills@Example.COM>, Bob <bob@x.org>']] };
    const test = (part: string, key: string) =>
      outcome(`require "subaddress"; if address ${part} :is "from" "${key}" { discard; }`, m).includes(
        'discard',
      );
    expect(test(':all', 'ann.lee+bills@example.com')).toBe(true);
    expect(test(':localpart', 'ann.lee+bills')).toBe(true);
    expect(test(':domain', 'x.org')).toBe(true);
    expect(test(':user', 'ann.lee')).toBe(true);
    expect(test(':detail', 'bills')).toBe(true);
    expect(test(':detail', '')).toBe(false);
  });

  it('envelope tests read the SMTP envelope, the null sender as ""', () => {
    expect(outcome('require "envelope"; if envelope :domain "to" "example.com" { discard; }')).toContain(
      'discard',
    );
    expect(outcome('require "envelope"; if envelope :is "from" "" { discard; }', { from: '' })).toContain(
      'discard',
    );
  });
});

describe('sieve actions', () => {
  it('a fileinto into a missing folder without :create fails the script and the message is kept', () => {
    const result = outcome('require "fileinto";\nfileinto "Nope";', { folders: ['INBOX'] });
    expect(result[0]).toBe('status=failed');
    expect(result[1]).toMatch(/^error "line 2: the mailbox \\"Nope\\" does not exist/);
    expect(result.at(-1)).toBe('implicit-keep');
  });

  it('fileinto :create into a missing folder succeeds', () => {
    expect(outcome('require ["fileinto","mailbox"]; fileinto :create "New";', { folders: [] })).toEqual([
      'status=success',
      'fileinto "New" create',
    ]);
  });

  it('imap4flags: the internal flags go with keep, fileinto and the implicit keep, sorted and capitalised', () => {
    const script = `require ["fileinto","imap4flags"];
      setflag "\\\\seen Work"; addflag ["\\\\flagged", "work"]; removeflag "Work";
      fileinto :copy "A"; fileinto :flags "Other" "B"; addflag "Late";`;
    expect(outcome(script.replace(':copy', ''))).toEqual([
      'status=success',
      'fileinto "A" flags=\\Flagged,\\Seen',
      'fileinto "B" flags=Other',
    ]);
  });

  it('hasflag tests the internal flags', () => {
    expect(outcome('require "imap4flags"; addflag "\\\\Seen"; if hasflag "\\\\seen" { discard; }')).toContain(
      'discard',
    );
  });

  it('the same address redirected twice is one redirect that keeps the first :copy (and the implicit keep)', () => {
    expect(outcome('require "copy"; redirect :copy "a@example.org"; redirect "a@Example.ORG";')).toEqual([
      'status=success',
      'redirect "a@example.org" copy',
      'implicit-keep',
    ]);
    expect(outcome('redirect "Ann@Example.org";')).toEqual(['status=success', 'redirect "Ann@example.org"']);
  });

  it('a second store into the same mailbox gives the first its flags but neither :create nor a cancelled keep', () => {
    const script = `require ["fileinto","copy","mailbox","imap4flags"];
      fileinto :copy :flags "A" "Work"; fileinto :create :flags "B" "Work";`;
    expect(outcome(script)).toEqual(['status=success', 'fileinto "Work" flags=B', 'implicit-keep']);
  });

  it('more redirects than the limit fail the script', () => {
    const script = [1, 2, 3, 4, 5].map((n) => `redirect "u${n}@example.org";`).join('\n');
    expect(outcome(script)[0]).toBe('status=failed');
    expect(outcome(script, {}, { maxRedirects: 5 })[0]).toBe('status=success');
  });

  it('more actions than the limit fail the script', () => {
    const script =
      'require "fileinto";\n' + Array.from({ length: 40 }, (_, n) => `fileinto "F${n}";`).join('\n');
    expect(outcome(script)[0]).toBe('status=failed');
  });

  it('reject conflicts with an earlier fileinto; reject alone cancels the implicit keep', () => {
    expect(outcome('require ["fileinto","reject"]; fileinto "A"; reject "no";')[0]).toBe('status=failed');
    expect(outcome('require "reject"; reject "no thanks";')).toEqual([
      'status=success',
      'reject "no thanks"',
    ]);
    expect(outcome('require "ereject"; ereject "no";')).toEqual(['status=success', 'ereject "no"']);
  });

  it('vacation: the period in seconds (days, :seconds, at least a day) and the default subject', () => {
    expect(outcome('require "vacation"; vacation :days 2 :subject "Away" "I am away";')).toEqual([
      'status=success',
      'vacation subject="Away" seconds=172800',
      'implicit-keep',
    ]);
    expect(outcome('require "vacation-seconds"; vacation :seconds 60 "x";')).toContain(
      'vacation subject="Auto: Hello" seconds=86400',
    );
  });
});

describe('sieve variables and extensions', () => {
  it('set with modifiers and ${…} expansion', () => {
    const script = `require ["variables","fileinto"];
      set :lower :upperfirst "name" "WORK";
      set :length "len" "abcd";
      fileinto "\${name}-\${len}-\${unset}";`;
    expect(outcome(script)).toEqual(['status=success', 'fileinto "Work-4-"']);
  });

  it('the string test compares with i;octet unless a comparator is given (as Pigeonhole does)', () => {
    const req = 'require "variables";';
    expect(outcome(`${req} if string :is "Abc" "abc" { discard; }`)).not.toContain('discard');
    expect(outcome(`${req} if string :comparator "i;ascii-casemap" :is "Abc" "abc" { discard; }`)).toContain(
      'discard',
    );
  });

  it('case modifiers change ASCII letters only', () => {
    const script = 'require ["variables","fileinto"]; set :upper "v" "отчёт abc"; fileinto "${v}";';
    expect(outcome(script)).toEqual(['status=success', 'fileinto "отчёт ABC"']);
  });

  it(':index counts the fields of all the named headers together, and :count counts the one it selects', () => {
    const m: Message = {
      headers: [
        ['Subject', 's'],
        ['Received', 'r1'],
        ['Received', 'r2'],
      ],
    };
    const req = 'require "index";';
    expect(outcome(`${req} if header :index 2 ["subject","received"] "r1" { discard; }`, m)).toContain(
      'discard',
    );
    expect(outcome(`${req} if header :index 1 :last ["received","subject"] "s" { discard; }`, m)).toContain(
      'discard',
    );
    const count =
      'require ["index","relational","comparator-i;ascii-numeric"]; if header :count "eq" :comparator "i;ascii-numeric"';
    expect(outcome(`${count} :index 1 :last ["list-id","subject"] "1" { discard; }`, m)).toContain('discard');
    expect(outcome(`${count} :index 5 "received" "0" { discard; }`, m)).toContain('discard');
  });

  it('body tests set no match variables', () => {
    const script = `require ["variables","fileinto","body"];
      if header :matches "subject" "H*" {} if body :matches "*od*" { fileinto "[\${1}]"; }`;
    expect(outcome(script, { raw: 'body' })).toEqual(['status=success', 'fileinto "[ello]"']);
  });

  it(':count of an address part counts the addresses that lack the part too', () => {
    const m: Message = { headers: [['To', 'a@x.org, b+tag@x.org']] };
    const script = `require ["subaddress","relational","comparator-i;ascii-numeric"];
      if address :detail :count "eq" :comparator "i;ascii-numeric" "to" "2" { discard; }`;
    expect(outcome(script, m)).toContain('discard');
  });

  it(':regex reads POSIX escapes: a backslash before a plain letter is the letter, inside brackets it is itself', () => {
    const m: Message = { headers: [['Subject', 'a\\b Flag']] };
    const req = 'require "regex";';
    expect(outcome(`${req} if header :regex "subject" "\\\\Flag" { discard; }`, m)).toContain('discard');
    expect(outcome(`${req} if header :regex "subject" "a[\\\\]b" { discard; }`, m)).toContain('discard');
  });

  it(':matches sets match variables, the earlier wildcards as short as possible', () => {
    const script = `require ["variables","fileinto"];
      if header :matches "subject" "*-*-*" { fileinto "\${1}|\${2}|\${3}|\${0}"; }`;
    expect(outcome(script, { headers: [['Subject', 'a-b-c-d']] })).toEqual([
      'status=success',
      'fileinto "a|b|c-d|a-b-c-d"',
    ]);
  });

  it(':regex sets groups as match variables', () => {
    const script = `require ["variables","fileinto","regex"];
      if header :regex "subject" "^\\\\[([a-z]+)\\\\]" { fileinto "\${1}"; }`;
    expect(outcome(script, { headers: [['Subject', '[Lists] news']] })).toEqual([
      'status=success',
      'fileinto "Lists"',
    ]);
  });

  it('relational :count and :value with i;ascii-numeric', () => {
    const m: Message = {
      headers: [
        ['To', 'a@x.org, b@x.org, c@x.org'],
        ['X-Score', '12'],
      ],
    };
    const req = 'require ["relational","comparator-i;ascii-numeric"];';
    expect(
      outcome(`${req} if address :count "ge" :comparator "i;ascii-numeric" "to" "3" { discard; }`, m),
    ).toContain('discard');
    expect(
      outcome(`${req} if header :value "gt" :comparator "i;ascii-numeric" "x-score" "9" { discard; }`, m),
    ).toContain('discard');
  });

  it('body :text, :content and :raw', () => {
    const m: Message = {
      parts: [
        { contentType: 'text/plain', text: 'plain words' },
        { contentType: 'text/html', text: '<p>rich <b>words</b></p>' },
      ],
      raw: '--b\r\nContent-Transfer-Encoding: base64\r\n\r\ncGxhaW4=\r\n',
    };
    const req = 'require "body";';
    expect(outcome(`${req} if body :text :contains "rich words" { discard; }`, m)).toContain('discard');
    expect(outcome(`${req} if body :content "text/html" :contains "<b>" { discard; }`, m)).toContain(
      'discard',
    );
    expect(outcome(`${req} if body :raw :contains "cGxhaW4=" { discard; }`, m)).toContain('discard');
  });

  it('date and currentdate with :zone, :originalzone and :index', () => {
    const m: Message = {
      headers: [
        ['Date', 'Tue, 24 Nov 2026 23:30:00 +0300'],
        ['Received', 'from a by b; Mon, 23 Nov 2026 10:00:00 +0000'],
      ],
    };
    const req = 'require ["date","index","relational"];';
    expect(outcome(`${req} if date :originalzone "date" "date" "2026-11-24" { discard; }`, m)).toContain(
      'discard',
    );
    expect(outcome(`${req} if date :zone "+0000" "date" "time" "20:30:00" { discard; }`, m)).toContain(
      'discard',
    );
    expect(outcome(`${req} if date :index 1 "received" "weekday" "1" { discard; }`, m)).toContain('discard');
    expect(outcome(`${req} if currentdate :zone "+0100" "hour" "11" { discard; }`, m)).toContain('discard');
  });

  it('the date test reads the first field of its header unless :index says otherwise; an unknown part is false', () => {
    const m: Message = {
      headers: [
        ['Date', 'Fri, 04 Dec 2026 23:59:59 -1000'],
        ['Date', 'Sat, 05 Dec 2026 01:00:00 +0000'],
      ],
    };
    const req = 'require ["date","index"];';
    expect(outcome(`${req} if date :originalzone "date" "minute" "00" { discard; }`, m)).not.toContain(
      'discard',
    );
    expect(outcome(`${req} if date :index 2 "date" "minute" "00" { discard; }`, m)).toContain('discard');
    expect(outcome(`${req} if not date "date" "fortnight" "1" { discard; }`, m)).toContain('discard');
  });

  it('encoded-character turns ${hex:…} and ${unicode:…} into characters', () => {
    expect(
      outcome('require ["encoded-character","fileinto"]; fileinto "${hex:41 42}${unicode:043F}";'),
    ).toEqual(['status=success', 'fileinto "ABп"']);
  });
});

describe('sieve as Pigeonhole reads it', () => {
  it('body :text renders HTML as Dovecot does: a tag is one space unless the text ends in white space', () => {
    const m: Message = {
      parts: [{ contentType: 'text/html', text: '<p>Markets <b>rise</b>.</p><p>Sunny &amp; warm</p>' }],
    };
    const script =
      'require ["body","variables","fileinto"]; if string :is "x" "y" {} if body :text :contains "rise ." { discard; }';
    expect(outcome(script, m)).toContain('discard');
    expect(outcome('require "body"; if body :text :contains "Sunny & warm " { discard; }', m)).toContain(
      'discard',
    );
  });

  it('setflag and addflag ignore flags that are no IMAP flag (non-ASCII, unknown \\ flags, atom specials)', () => {
    const script =
      'require "imap4flags"; addflag ["Финансы", "\\\\Foo", "a{b", "$Label1", "\\\\seen"]; keep;';
    expect(outcome(script)).toEqual(['status=success', 'keep flags=$Label1,\\Seen']);
  });

  it(':flags takes its flags as given (Pigeonhole checks none there)', () => {
    expect(outcome('require "imap4flags"; keep :flags ["a{b", "Ok"];')).toEqual([
      'status=success',
      'keep flags=Ok,a{b',
    ]);
  });

  it('a folded header is unfolded as Dovecot does: a tab that began the continuation line becomes a space', () => {
    const m: Message = {
      headers: [
        ['X-Tags', ' alpha, beta,\r\n\tgamma'],
        ['X-More', ' one,\r\n   two '],
      ],
    };
    expect(outcome('if header :is "x-tags" "alpha, beta, gamma" { discard; }', m)).toContain('discard');
    expect(outcome('if header :is "x-more" "one,   two" { discard; }', m)).toContain('discard');
  });

  it('a value without "@" is no address: :all matches it whole, :localpart finds nothing', () => {
    const m: Message = { headers: [['Sender', 'MAILER-DAEMON']] };
    expect(outcome('if address :all :is "sender" "MAILER-DAEMON" { discard; }', m)).toContain('discard');
    expect(outcome('if address :localpart :is "sender" "MAILER-DAEMON" { discard; }', m)).not.toContain(
      'discard',
    );
  });

  it('the address test refuses a header that holds no addresses', () => {
    expect(outcome('if address "subject" "x" { discard; }')[0]).toBe('status=compile-error');
    expect(outcome('if address ["x-original-to", "resent-cc"] "x" { discard; }')[0]).toBe('status=success');
  });

  it('code that can never run is checked unless checkUnreachable is off', () => {
    const script = 'if false { fileinto "x"; }';
    expect(formatResult(evaluate(script, host()))[0]).toBe('status=compile-error');
    expect(formatResult(evaluate(script, host(), {}, { checkUnreachable: false }))).toEqual([
      'status=success',
      'implicit-keep',
    ]);
  });

  it('${name} and ${N} are replaced, ${hex:…} without encoded-character stays text, ${ns.name} is refused', () => {
    const script = 'require ["variables","fileinto"]; set "a" "1"; fileinto "${a}-${hex:41}-${b}";';
    expect(outcome(script)).toEqual(['status=success', 'fileinto "1-${hex:41}-"']);
    expect(outcome('require ["variables","fileinto"]; fileinto "${b.c}";')[0]).toBe('status=compile-error');
  });
});

describe('sieve bounds', () => {
  it('a catastrophic :regex pattern on a large body finishes in bounded time', () => {
    const body = 'a'.repeat(500_000) + 'b';
    const started = performance.now();
    const result = outcome('require ["body","regex"]; if body :raw :regex "(a+)+$" { discard; }', {
      raw: body,
    });
    expect(result).toEqual(['status=success', 'implicit-keep']);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('a :matches pattern with many wildcards on a large body finishes quickly (only the last * widens)', () => {
    const body = 'a'.repeat(200_000);
    const script = `require "body"; if body :raw :matches "${'*a'.repeat(50)}b" { discard; }`;
    const started = performance.now();
    expect(outcome(script, { raw: body })).toEqual(['status=success', 'implicit-keep']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("a :regex is charged its pattern's size times the text's length: issue 28's pattern fails on its budget at once", () => {
    const pattern = `${'a?'.repeat(341)}${'a'.repeat(341)}b`;
    const started = performance.now();
    const result = outcome(`require ["body","regex"]; if body :raw :regex "${pattern}" { keep; }`, {
      raw: `${'a'.repeat(998)}\n`.repeat(256),
    });
    expect(result).toEqual([
      'status=failed',
      'error "line 1: the script used more than its 50000000 steps"',
      'implicit-keep',
    ]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a :regex pattern longer than 1024 characters does not compile', () => {
    const result = evaluate(
      `require "regex"; if header :regex "subject" "${'a'.repeat(1025)}" { keep; }`,
      host(),
    );
    expect(result).toMatchObject({
      status: 'compile-error',
      error: { message: 'line 1: the regular expression is 1025 characters long; at most 1024 are allowed' },
    });
    expect(outcome(`require "regex"; if header :regex "subject" "${'a'.repeat(1024)}" { keep; }`)).toEqual([
      'status=success',
      'implicit-keep',
    ]);
  });

  it('a run past its time limit stops with "the filter took too long" and the message is kept', () => {
    const script = `require "body"; if body :raw :matches "${'*a'.repeat(50)}b" { discard; }`;
    const result = outcome(script, { raw: 'a'.repeat(2_000_000) }, { timeLimitMs: 1 });
    expect(result).toEqual([
      'status=failed',
      'error "line 1: the filter took too long (more than 1 ms) and was stopped"',
      'implicit-keep',
    ]);
  });

  it('a run that spends its step budget stops with a runtime error and the message is kept', () => {
    const script = `require "body"; if body :raw :matches "${'*a'.repeat(50)}b" { discard; }`;
    const result = outcome(script, { raw: 'a'.repeat(200_000) }, { maxSteps: 50_000 });
    expect(result).toEqual([
      'status=failed',
      'error "line 1: the script used more than its 50000 steps"',
      'implicit-keep',
    ]);
  });
});

describe('spamtest (RFC 5235)', () => {
  const scored = (score: number | null): SieveHost => ({
    ...host(),
    spamScore: () => (score === null ? null : { score, required: 15 }),
  });
  const run = (script: string, score: number | null) => formatResult(evaluate(script, scored(score)));
  const junk = `require ["spamtest", "relational", "comparator-i;ascii-numeric", "fileinto"];
    if spamtest :value "ge" :comparator "i;ascii-numeric" "6" { fileinto "Junk"; }`;

  it('files mail scored at or past the threshold and keeps the rest', () => {
    expect(run(junk, 15)).toEqual(['status=success', 'fileinto "Junk"']);
    expect(run(junk, 9)).toEqual(['status=success', 'fileinto "Junk"']);
    expect(run(junk, 2)).toEqual(['status=success', 'implicit-keep']);
  });

  it('an untested message is "0", never spam', () => {
    const untested = `require ["spamtest", "fileinto"]; if spamtest "0" { fileinto "Unchecked"; }`;
    expect(run(untested, null)).toEqual(['status=success', 'fileinto "Unchecked"']);
    expect(run(untested, 0)).toEqual(['status=success', 'implicit-keep']);
    expect(run(junk, null)).toEqual(['status=success', 'implicit-keep']);
  });

  it(':percent needs spamtestplus and gives the share of the threshold', () => {
    const percent = `require ["spamtestplus", "relational", "comparator-i;ascii-numeric", "fileinto"];
      if spamtest :percent :value "ge" :comparator "i;ascii-numeric" "50" { fileinto "Junk"; }`;
    expect(run(percent, 9)).toEqual(['status=success', 'fileinto "Junk"']);
    expect(run(percent, 6)).toEqual(['status=success', 'implicit-keep']);
    expect(run('require "spamtest"; if spamtest :percent "1" { stop; }', 1)[0]).toMatch(
      /^status=failed|error/,
    );
  });
});
