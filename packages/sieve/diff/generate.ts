/**
 * Random Sieve scripts from a grammar over the commands and tests of issue 14, with keys drawn from
 * the message each script is paired with (so that tests match about as often as they fail).
 */
import { decodeMimeWords } from '../src/mime.js';
import { parseAddressList } from '../src/address.js';

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Vocabulary {
  headers: { name: string; value: string }[];
  addresses: { header: string; local: string; domain: string }[];
  bodyWords: string[];
  size: number;
}

/** What a message offers to build keys from. */
export function vocabularyOf(raw: Buffer): Vocabulary {
  const text = raw.toString('utf8');
  const split = text.search(/\r?\n\r?\n/);
  const head = text.slice(0, split);
  const body = text.slice(split);
  const headers = head
    .split(/\r?\n(?![ \t])/)
    .map((line) => {
      const i = line.indexOf(':');
      return {
        name: line.slice(0, i),
        value: decodeMimeWords(
          line
            .slice(i + 1)
            .replace(/\r?\n[ \t]+/g, ' ')
            .trim(),
        ),
      };
    })
    .filter((h) => h.name);
  const addresses: Vocabulary['addresses'] = [];
  for (const h of headers)
    if (/^(from|to|cc|bcc|reply-to|sender)$/i.test(h.name))
      for (const a of parseAddressList(h.value) ?? [])
        if (a.domain) addresses.push({ header: h.name, local: a.localpart, domain: a.domain });
  const bodyWords = body.match(/[\p{L}\d]{3,}/gu) ?? [];
  return { headers, addresses, bodyWords, size: raw.length };
}

const headerNames = [
  'subject',
  'from',
  'to',
  'cc',
  'list-id',
  'auto-submitted',
  'precedence',
  'x-spam-score',
  'x-spam-flag',
  'received',
  'date',
  'content-type',
  'reply-to',
  'sender',
  'x-mailer',
  'message-id',
  'x-nothing-here',
  'X-Tags',
];
const addressHeaders = ['from', 'to', 'cc', 'bcc', 'reply-to', 'sender', ['to', 'cc'], 'x-original-to'];
const folders = ['Work', 'Lists/dev', 'Invoices', 'Spam', 'INBOX', 'Архив', 'Trash', 'Family.Photos'];
const flags = [
  '\\Seen',
  '\\Flagged',
  '\\Answered',
  '\\Deleted',
  '\\Draft',
  '$Label1',
  'Finance',
  'Junk',
  '\\seen',
];
const words = [
  'invoice',
  'Release',
  'отчёт',
  'Встреча',
  'prize',
  'budget',
  'example',
  'hello',
  'ACME',
  'счёт',
  'zzz',
  'WON',
];
const redirectTargets = [
  'boss@example.org',
  'archive@example.net',
  'Ann.Lee@Example.COM',
  'team+sieve@work.example',
];

export interface Generated {
  script: string;
}

export function generateScript(random: () => number, vocab: Vocabulary): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chance = (p: number) => random() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const req = new Set<string>();
  const plain = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;
  /** Strings that stay as written: :regex keys (Pigeonhole checks them before decoding, KNOWN-DIFFERENCES.md). */
  // (Redirect addresses likewise: they are written with plain().)
  const verbatim = new Set<string>();
  const quote = (s: string) => plain(encodeSome(s, !verbatim.has(s)));
  /** Now and then a character written as ${hex:…} or ${unicode:…} (encoded-character). */
  function encodeSome(s: string, allowed = true): string {
    if (!allowed || !s || !chance(0.05) || s.includes('${')) return s;
    req.add('encoded-character');
    const chars = [...s];
    const i = int(0, chars.length - 1);
    const cp = chars[i]!.codePointAt(0)!;
    chars[i] =
      cp < 0x80 && chance(0.5)
        ? `\${hex:${cp.toString(16)}}`
        : `\${unicode:${cp.toString(16).padStart(4, '0')}}`;
    return chars.join('');
  }
  const list = (items: string[]) =>
    items.length === 1 && chance(0.6) ? quote(items[0]!) : `[${items.map(quote).join(', ')}]`;
  let capturing = false;

  const slice = (s: string) => {
    const chars = [...s];
    if (chars.length < 3) return s;
    const len = int(2, Math.min(10, chars.length));
    const from = int(0, chars.length - len);
    return chars.slice(from, from + len).join('');
  };
  const randomCase = (s: string) => (chance(0.3) ? s.toUpperCase() : chance(0.3) ? s.toLowerCase() : s);

  function valueFor(name: string): string | null {
    const found = vocab.headers.filter((h) => h.name.toLowerCase() === name.toLowerCase());
    return found.length ? pick(found).value : null;
  }

  /** A key for a match type, mostly derived from a real value. */
  function key(type: string, real: string | null): string {
    const base = real !== null && chance(0.7) ? real : pick([...words, ...vocab.bodyWords.slice(0, 30)]);
    switch (type) {
      case ':is':
        return chance(0.5) ? randomCase(base) : slice(base);
      case ':contains':
        return randomCase(slice(base));
      case ':matches': {
        const part = slice(base).replace(/[*?\\]/g, '');
        const forms = [
          `*${part}*`,
          `${part}*`,
          `*${part}`,
          `*`,
          `${part.slice(0, 1)}?${part.slice(2)}*`,
          `*@*`,
          `* *`,
          `[*]*`,
        ];
        return randomCase(pick(forms));
      }
      case ':regex': {
        const part = slice(base).replace(/[\\^$.[\]|()?*+{}]/g, '');
        const forms = [
          `^${part}`,
          `${part}$`,
          `(${part}|zzz)`,
          `[0-9]+`,
          `^[[:alpha:]]+`,
          `([a-z]+)@([a-z.]+)`,
          `${part}.*`,
          `(a+)+$`,
          `^.{5,10}$`,
        ];
        const chosen = pick(forms);
        verbatim.add(chosen);
        return chosen;
      }
      default:
        return base;
    }
  }

  function matchArgs(numericOk: boolean): { args: string[]; type: string } {
    const args: string[] = [];
    let type = pick([':is', ':contains', ':matches', ':is', ':contains', ':regex', ':value', ':count', '']);
    if (type === ':regex') req.add('regex');
    if (type === ':value' || type === ':count') {
      req.add('relational');
      args.push(type, quote(pick(['gt', 'ge', 'lt', 'le', 'eq', 'ne'])));
    } else if (type) args.push(type);
    if (type === ':matches' || type === ':regex') capturing = true;
    const numeric = (type === ':value' || type === ':count') && numericOk && chance(0.7);
    if (numeric) {
      req.add('comparator-i;ascii-numeric');
      args.push(':comparator', quote('i;ascii-numeric'));
    } else if (chance(0.25)) args.push(':comparator', quote(pick(['i;octet', 'i;ascii-casemap'])));
    if (type === '') type = ':is';
    return { args, type };
  }

  function relationalKey(type: string, real: string | null): string {
    if (type === ':count') return String(int(0, 3));
    if (type === ':value') return chance(0.5) ? String(int(0, 12)) : key(':is', real);
    return key(type, real);
  }

  function test(depth: number): string {
    const kinds = [
      'header',
      'header',
      'address',
      'address',
      'envelope',
      'exists',
      'size',
      'body',
      'hasflag',
      'date',
      'currentdate',
      'string',
      'true',
      'false',
    ];
    if (depth < 2) kinds.push('not', 'allof', 'anyof', 'anyof');
    const kind = pick(kinds);
    switch (kind) {
      case 'true':
      case 'false':
        return kind;
      case 'not':
        return `not ${test(depth + 1)}`;
      case 'allof':
      case 'anyof':
        return `${kind} (${Array.from({ length: int(1, 3) }, () => test(depth + 1)).join(', ')})`;
      case 'header': {
        const names = chance(0.8) ? [pick(headerNames)] : [pick(headerNames), pick(headerNames)];
        const { args, type } = matchArgs(true);
        if (chance(0.1)) {
          req.add('index');
          args.push(':index', String(int(1, 2)));
          if (chance(0.5)) args.push(':last');
        }
        const keys = Array.from({ length: int(1, 2) }, () => relationalKey(type, valueFor(names[0]!)));
        return `header ${args.join(' ')} ${list(names)} ${list(keys)}`.replace(/\s+/g, ' ');
      }
      case 'address':
      case 'envelope': {
        const args: string[] = [];
        const part = pick([':all', ':localpart', ':domain', ':user', ':detail', '']);
        if (part === ':user' || part === ':detail') req.add('subaddress');
        if (part) args.push(part);
        const m = matchArgs(true);
        args.push(...m.args);
        let names: string[];
        if (kind === 'envelope') {
          req.add('envelope');
          names = chance(0.8) ? [pick(['from', 'to'])] : ['from', 'to'];
        } else {
          const h = chance(0.05) ? pick(['list-id', 'subject', 'message-id']) : pick(addressHeaders);
          names = Array.isArray(h) ? h : [h];
        }
        const real = vocab.addresses.length && chance(0.7) ? pick(vocab.addresses) : null;
        const realPart = real
          ? part === ':localpart'
            ? real.local
            : part === ':domain'
              ? real.domain
              : part === ':user'
                ? real.local.split('+')[0]!
                : part === ':detail'
                  ? (real.local.split('+')[1] ?? '')
                  : `${real.local}@${real.domain}`
          : null;
        const keys = Array.from({ length: int(1, 2) }, () => relationalKey(m.type, realPart));
        return `${kind} ${args.join(' ')} ${list(names)} ${list(keys)}`.replace(/\s+/g, ' ');
      }
      case 'exists':
        return `exists ${list(Array.from({ length: int(1, 2) }, () => pick(headerNames)))}`;
      case 'size': {
        const around = vocab.size + int(-200, 200);
        return `size ${pick([':over', ':under'])} ${chance(0.2) ? `${int(1, 3)}K` : chance(0.05) ? '1M' : String(Math.max(0, around))}`;
      }
      case 'body': {
        req.add('body');
        const transform = pick([':text', ':raw', ':content', '']);
        const args: string[] = [];
        if (transform === ':content')
          args.push(':content', list([pick(['text', 'text/plain', 'text/html', 'application/pdf'])]));
        else if (transform) args.push(transform);
        const type = pick([':contains', ':contains', ':matches', ':is', ':regex']);
        if (type === ':regex') req.add('regex');
        if (type === ':matches' || type === ':regex') capturing = true;
        args.push(type);
        const real = vocab.bodyWords.length ? pick(vocab.bodyWords) : null;
        return `body ${args.join(' ')} ${list([type === ':matches' && chance(0.5) ? `*${real ?? 'x'}*` : key(type, real)])}`;
      }
      case 'hasflag': {
        req.add('imap4flags');
        const { args, type } = matchArgs(false);
        const keys = type === ':count' ? [String(int(0, 2))] : [pick(flags)];
        let variable = '';
        if (chance(0.3)) {
          req.add('variables');
          variable = plain('fl') + ' ';
        }
        return `hasflag ${args.join(' ')} ${variable}${list(keys)}`.replace(/\s+/g, ' ');
      }
      case 'date': {
        req.add('date');
        const args: string[] = [];
        const zone = pick(['', ':originalzone', ':zone "+0300"', ':zone "-0800"', ':zone "+0000"']);
        if (zone) args.push(zone);
        if (chance(0.15)) {
          req.add('index');
          args.push(':index', String(int(1, 2)), ...(chance(0.5) ? [':last'] : []));
        }
        const part = pick([
          'year',
          'month',
          'day',
          'date',
          'hour',
          'minute',
          'weekday',
          'time',
          'zone',
          'julian',
          'iso8601',
          'std11',
        ]);
        const type = pick([':is', ':value', ':matches', ':contains']);
        let k: string;
        if (type === ':value') {
          req.add('relational');
          args.push(':value', quote(pick(['gt', 'lt', 'ge', 'le'])));
          k =
            {
              year: '2026',
              month: '11',
              day: '25',
              date: '2026-11-27',
              hour: '12',
              minute: '30',
              weekday: '3',
            }[part] ?? '12';
        } else {
          args.push(type);
          if (type === ':matches') capturing = true;
          k = pick([
            '2026',
            '11',
            '12',
            '23',
            '2026-11-2*',
            '*:00:*',
            '+0000',
            '+0300',
            '1',
            '5',
            '*Nov*',
            '610*',
            '2026-11-30T*',
          ]);
        }
        return `date ${args.join(' ')} ${quote(pick(['date', 'date', 'received', 'x-nothing-here']))} ${quote(part)} ${quote(k)}`;
      }
      case 'currentdate':
        req.add('date');
        req.add('relational');
        return `currentdate :value ${quote(pick(['ge', 'lt']))} "year" ${quote(pick(['2020', '2200']))}`;
      case 'string': {
        req.add('variables');
        const { args, type } = matchArgs(true);
        const source = pick(['${v}', '${1}', 'literal text', '${0}', '']);
        return `string ${args.join(' ')} ${quote(source)} ${quote(relationalKey(type, 'literal text'))}`.replace(
          /\s+/g,
          ' ',
        );
      }
    }
    return 'true';
  }

  function flagArg(): string {
    return list(
      Array.from({ length: int(1, 2) }, () => (chance(0.2) ? `${pick(flags)} ${pick(flags)}` : pick(flags))),
    );
  }

  function action(): string {
    const kind = pick([
      'keep',
      'fileinto',
      'fileinto',
      'fileinto',
      'discard',
      'redirect',
      'reject',
      'vacation',
      'flag',
      'flag',
      'set',
      'stop',
    ]);
    switch (kind) {
      case 'keep': {
        if (chance(0.3)) {
          req.add('imap4flags');
          return `keep :flags ${flagArg()};`;
        }
        return 'keep;';
      }
      case 'fileinto': {
        req.add('fileinto');
        const args: string[] = [];
        if (chance(0.3)) {
          req.add('copy');
          args.push(':copy');
        }
        if (chance(0.3)) {
          req.add('mailbox');
          args.push(':create');
        }
        if (chance(0.3)) {
          req.add('imap4flags');
          args.push(':flags', flagArg());
        }
        let folder = pick(folders);
        if (capturing && chance(0.3)) {
          req.add('variables');
          folder = `Sorted/\${1}`;
        } else if (chance(0.1)) {
          req.add('variables');
          folder = 'V/${v}';
        }
        return `fileinto ${args.join(' ')} ${quote(folder)};`.replace(/\s+/g, ' ');
      }
      case 'discard':
        return 'discard;';
      case 'redirect': {
        const args: string[] = [];
        if (chance(0.3)) {
          req.add('copy');
          args.push(':copy');
        }
        return `redirect ${args.join(' ')} ${plain(pick(redirectTargets))};`.replace(/\s+/g, ' ');
      }
      case 'reject':
        req.add('reject');
        return chance(0.2)
          ? 'reject text:\r\nNot wanted here.\r\n.\r\n;'
          : `reject ${quote(pick(['Go away', 'Mailbox closed', 'Нет']))};`;
      case 'vacation': {
        const args: string[] = [];
        if (chance(0.4)) {
          args.push(':days', String(int(0, 30)));
          req.add('vacation');
        } else if (chance(0.3)) {
          req.add('vacation-seconds');
          args.push(':seconds', String(pick([0, 60, 3600, 86400, 90000, 1000000])));
        } else req.add('vacation');
        if (chance(0.6))
          args.push(':subject', quote(pick(['Away', 'В отпуске', 'Re: your mail', 'Out: ${v}'])));
        if (chance(0.2)) args.push(':from', plain(pick(['me@example.com', 'Me <me@example.com>'])));
        if (chance(0.2)) args.push(':addresses', list(['me@example.com', 'ann.lee@example.com']));
        if (chance(0.1)) args.push(':mime');
        if (chance(0.1)) args.push(':handle', quote('h1'));
        if (chance(0.1))
          return `vacation ${args.join(' ')} text:\r\nAway until Monday.\r\n..\r\n.\r\n;`.replace(/ +/g, ' ');
        return `vacation ${args.join(' ')} ${quote(pick(['I am away.', 'Я в отпуске до понедельника.']))};`.replace(
          /\s+/g,
          ' ',
        );
      }
      case 'flag': {
        req.add('imap4flags');
        let variable = '';
        if (chance(0.3)) {
          req.add('variables');
          variable = plain('fl') + ' ';
        }
        return `${pick(['setflag', 'addflag', 'addflag', 'removeflag'])} ${variable}${flagArg()};`;
      }
      case 'set': {
        req.add('variables');
        const mods = [
          pick(['', ':lower', ':upper']),
          pick(['', ':upperfirst', ':lowerfirst']),
          pick(['', '', ':length']),
          pick(['', '', ':quotewildcard']),
        ].filter(Boolean);
        return `set ${mods.join(' ')} ${plain('v')} ${quote(pick(['Mixed Case', '${1}', 'отчёт', 'x${0}y', 'Work']))};`.replace(
          /\s+/g,
          ' ',
        );
      }
      case 'stop':
        return chance(0.5) ? 'stop;' : 'keep;';
    }
    return 'keep;';
  }

  function block(depth: number, count: number): string[] {
    const lines: string[] = [];
    for (let i = 0; i < count; i++) {
      if (chance(0.05))
        lines.push(pick(['# a comment: keep; "quoted"', '/* a block\n   comment */', '/* } */']));
      if (depth < 3 && chance(0.45)) {
        capturing = false;
        let text = `if ${test(0)} {\n${block(depth + 1, int(1, 3)).join('\n')}\n}`;
        while (chance(0.3)) text += ` elsif ${test(0)} {\n${block(depth + 1, int(1, 2)).join('\n')}\n}`;
        if (chance(0.3)) text += ` else {\n${block(depth + 1, int(1, 2)).join('\n')}\n}`;
        lines.push(text);
      } else lines.push(action());
    }
    return lines;
  }

  const body = block(0, int(1, 5)).join('\n');
  const extensions = [...req];
  // A few scripts forget one require: both sides must refuse them.
  // (Not variables: without it "${…}" is literal text, so the script would mean something else.)
  const droppable = extensions.filter((e) => e !== 'variables');
  if (droppable.length && chance(0.04)) extensions.splice(extensions.indexOf(pick(droppable)), 1);
  const requireList = extensions.sort().map(plain);
  return (extensions.length ? `require [${requireList.join(', ')}];\n` : '') + body + '\n';
}
