import { parseAddressList, type ParsedAddress } from './address.js';
import type {
  AddressPart,
  Command,
  IndexSpec,
  MatchSpec,
  Script,
  SetModifier,
  Str,
  Test,
} from './compile.js';
import { SieveRuntimeError, type Position } from './errors.js';
import type { HeaderField, SieveHost } from './host.js';
import { defaultLimits, type SieveLimits } from './limits.js';
import { asciiFold, matchValues, type StepCounter } from './match.js';
import {
  datePart,
  decodeMimeWords,
  htmlToText,
  parseRfc5322Date,
  parseZone,
  unfold,
  type ZonedDate,
} from './mime.js';

/** What a script decided, in the order it decided it. */
export type SieveAction =
  | { type: 'keep'; flags: string[] }
  | { type: 'fileinto'; mailbox: string; create: boolean; copy: boolean; flags: string[] }
  | { type: 'discard' }
  | { type: 'redirect'; address: string; copy: boolean }
  | { type: 'reject' | 'ereject'; reason: string }
  | {
      type: 'vacation';
      /** The reply's subject: the script's, else "Auto: " and the message's subject. */
      subject: string;
      /** The script gave no :subject (so `subject` is the default). */
      defaultSubject: boolean;
      /** How long to wait before replying to the same sender again. */
      seconds: number;
      from: string | null;
      addresses: string[];
      mime: boolean;
      handle: string;
      reason: string;
    };

export interface SieveResult {
  /** "failed" after a runtime error: the actions are void and the message is kept in the Inbox. */
  status: 'success' | 'failed';
  actions: SieveAction[];
  /** The implicit keep when it stands (nothing cancelled it), with the flags it stores; else null. */
  implicitKeep: { flags: string[] } | null;
  error?: { message: string; line: number; column: number };
}

/** Pigeonhole's vacation period bounds (sieve_vacation_min_period 1d; no maximum; default 7d). */
const vacationMinSeconds = 86_400;
const vacationDefaultSeconds = 7 * 86_400;

const systemFlags = ['\\seen', '\\answered', '\\flagged', '\\deleted', '\\draft'];

class Stop {}

/**
 * A flag an IMAP store takes: a system flag, or a keyword atom (RFC 3501: no space, control
 * character, ( ) { % * " \\ ]). setflag and addflag drop others, as Pigeonhole does.
 */
function isValidFlag(flag: string): boolean {
  if (flag.startsWith('\\')) return systemFlags.includes(flag.toLowerCase());
  return /^[\x21-\x7e]+$/.test(flag) && !/[(){%*"\\\]]/.test(flag);
}

/** Splits flag lists: each string may hold several space-separated flags; duplicates go (case-insensitively). */
function flagList(values: string[]): string[] {
  const out: string[] = [];
  for (const v of values)
    for (const f of v.split(/\s+/))
      if (f && !out.some((o) => o.toLowerCase() === f.toLowerCase())) out.push(f);
  return out;
}

/** Runs a compiled script against a message; never throws for problems of the script or the message. */
export function run(script: Script, host: SieveHost, limits: Partial<SieveLimits> = {}): SieveResult {
  const run = new Run(script, host, { ...defaultLimits, ...limits });
  return run.execute();
}

class Run implements StepCounter {
  private steps = 0;
  private actions: SieveAction[] = [];
  private implicitKeep = true;
  private flags: string[] = [];
  private variables = new Map<string, string>();
  private matchVariables: string[] = [];
  private redirects = 0;
  private headerCache: HeaderField[] | null = null;
  private readonly variablesOn: boolean;

  constructor(
    private readonly script: Script,
    private readonly host: SieveHost,
    private readonly limits: SieveLimits,
  ) {
    this.variablesOn = script.extensions.has('variables');
    this.deadline = limits.timeLimitMs === null ? null : performance.now() + limits.timeLimitMs;
  }

  /** When the run must end (null: no time limit), and at what step the clock is looked at next. */
  private readonly deadline: number | null;
  private nextClockCheck = 0;

  spend(steps: number) {
    this.steps += steps;
    if (this.steps > this.limits.maxSteps) throw new BudgetSpent();
    if (this.deadline !== null && this.steps >= this.nextClockCheck) {
      // Reading the clock costs as much as some dozens of steps: looked at every 4096 steps, and before any
      // large piece of work (one regex match over a long text is charged before it runs).
      this.nextClockCheck = this.steps + 4096;
      if (performance.now() > this.deadline) throw new TimeUp();
    }
  }

  checkClock() {
    if (this.deadline !== null && performance.now() > this.deadline) throw new TimeUp();
  }

  execute(): SieveResult {
    try {
      this.block(this.script.commands);
    } catch (err) {
      if (!(err instanceof Stop)) {
        const error =
          err instanceof SieveRuntimeError
            ? err
            : err instanceof BudgetSpent
              ? new SieveRuntimeError(`the script used more than its ${this.limits.maxSteps} steps`, this.at)
              : err instanceof TimeUp
                ? new SieveRuntimeError(tookTooLong(this.limits.timeLimitMs!), this.at)
                : null;
        if (!error) throw err;
        return {
          status: 'failed',
          actions: [],
          implicitKeep: { flags: [] },
          error: { message: error.message, line: error.position.line, column: error.position.column },
        };
      }
    }
    return {
      status: 'success',
      actions: this.actions,
      implicitKeep: this.implicitKeep ? { flags: [...this.flags] } : null,
    };
  }

  /** Where the command running now is (for errors that have no better place). */
  private at: Position = { line: 1, column: 1 };

  private block(commands: Command[]) {
    for (const c of commands) this.command(c);
  }

  private fail(message: string, pos: Position): never {
    throw new SieveRuntimeError(message, pos);
  }

  private addAction(action: SieveAction, pos: Position) {
    if (this.actions.length >= this.limits.maxActions)
      this.fail(`total number of actions exceeds the limit of ${this.limits.maxActions}`, pos);
    this.actions.push(action);
  }

  private rejectConflict(pos: Position, type: SieveAction['type']) {
    const delivering = (a: SieveAction) =>
      a.type === 'keep' || a.type === 'fileinto' || a.type === 'redirect';
    if (type === 'reject' || type === 'ereject') {
      const other = this.actions.find((a) => delivering(a) || a.type === 'vacation');
      if (other) this.fail(`reject/ereject action conflicts with the earlier ${other.type} action`, pos);
    } else if (this.actions.some((a) => a.type === 'reject' || a.type === 'ereject')) {
      this.fail(`the ${type} action conflicts with an earlier reject/ereject action`, pos);
    }
  }

  /** keep and fileinto to one mailbox are one store: the first place, the latest flags. */
  private store(mailbox: string, flags: string[], create: boolean, copy: boolean, pos: Position) {
    const isInbox = mailbox.toUpperCase() === 'INBOX';
    this.rejectConflict(pos, isInbox ? 'keep' : 'fileinto');
    const same = this.actions.find(
      (a) =>
        (a.type === 'keep' && isInbox) ||
        (a.type === 'fileinto' && (isInbox ? a.mailbox.toUpperCase() === 'INBOX' : a.mailbox === mailbox)),
    );
    if (same && (same.type === 'keep' || same.type === 'fileinto')) {
      // As in Pigeonhole, a duplicate only gives the first store its flags: it neither adds :create
      // nor cancels the implicit keep.
      same.flags = flags;
      return;
    }
    if (isInbox && !create) this.addAction({ type: 'keep', flags }, pos);
    else this.addAction({ type: 'fileinto', mailbox, create, copy, flags }, pos);
    if (!copy) this.implicitKeep = false;
  }

  private command(c: Command) {
    this.spend(1);
    this.at = c.pos;
    switch (c.type) {
      case 'if':
        for (const b of c.branches) {
          if (b.test === null || this.test(b.test)) {
            this.block(b.block);
            return;
          }
        }
        return;
      case 'stop':
        throw new Stop();
      case 'discard':
        if (!this.actions.some((a) => a.type === 'discard')) this.addAction({ type: 'discard' }, c.pos);
        this.implicitKeep = false;
        return;
      case 'keep':
        this.store('INBOX', this.flagsOf(c.flags), false, false, c.pos);
        return;
      case 'fileinto': {
        const mailbox = this.expand(c.mailbox);
        if (!c.create && !this.host.mailboxExists(mailbox))
          this.fail(`the mailbox "${mailbox}" does not exist (fileinto :create would create it)`, c.pos);
        this.store(mailbox, this.flagsOf(c.flags), c.create, c.copy, c.pos);
        return;
      }
      case 'redirect': {
        const address = this.expand(c.address);
        const parsed = parseAddressList(address);
        if (!parsed || parsed.length !== 1)
          this.fail(`the redirect address "${address}" is not a valid address`, c.pos);
        this.rejectConflict(c.pos, 'redirect');
        const target = parsed![0]!;
        const duplicate = this.actions.some((a) => {
          if (a.type !== 'redirect') return false;
          const other = parseAddressList(a.address)?.[0];
          return (
            !!other &&
            other.localpart === target.localpart &&
            other.domain.toLowerCase() === target.domain.toLowerCase()
          );
        });
        if (duplicate) return; // the first redirect stands, with its :copy
        if (this.redirects >= this.limits.maxRedirects)
          this.fail(`total number of redirects exceeds the limit of ${this.limits.maxRedirects}`, c.pos);
        this.redirects++;
        this.addAction(
          { type: 'redirect', address: `${target.localpart}@${target.domain.toLowerCase()}`, copy: c.copy },
          c.pos,
        );
        if (!c.copy) this.implicitKeep = false;
        return;
      }
      case 'reject':
      case 'ereject': {
        this.rejectConflict(c.pos, c.type);
        if (this.actions.some((a) => a.type === 'reject' || a.type === 'ereject'))
          this.fail('only one reject/ereject action is allowed', c.pos);
        this.addAction({ type: c.type, reason: this.expand(c.reason) }, c.pos);
        this.implicitKeep = false;
        return;
      }
      case 'vacation': {
        if (this.actions.some((a) => a.type === 'vacation'))
          this.fail('only one vacation action is allowed', c.pos);
        this.rejectConflict(c.pos, 'vacation');
        const given = c.seconds === null ? null : c.unit === 'days' ? c.seconds * 86_400 : c.seconds;
        const seconds = given === null ? vacationDefaultSeconds : Math.max(given, vacationMinSeconds);
        const subject = c.subject ? this.expand(c.subject) : '';
        const reason = this.expand(c.reason);
        const from = c.from ? this.expand(c.from) : null;
        this.addAction(
          {
            type: 'vacation',
            subject: subject || this.defaultVacationSubject(),
            defaultSubject: !subject,
            seconds,
            from,
            addresses: c.addresses.map((a) => this.expand(a)),
            mime: c.mime,
            handle: c.handle
              ? this.expand(c.handle)
              : `${reason}${subject || '<default-subject>'}${from ?? '<default-from>'}${c.mime ? '<MIME>' : '<NO-MIME>'}`,
            reason,
          },
          c.pos,
        );
        return;
      }
      case 'setflag':
      case 'addflag':
      case 'removeflag': {
        // Invalid flags are ignored (Pigeonhole warns and drops them).
        const given = flagList(c.flags.map((f) => this.expand(f))).filter(isValidFlag);
        const name = c.variable ? this.expand(c.variable).toLowerCase() : null;
        const current = name === null ? this.flags : flagList([this.variables.get(name) ?? '']);
        let next: string[];
        if (c.type === 'setflag') next = given;
        else if (c.type === 'addflag') next = flagList([...current, ...given]);
        else next = current.filter((f) => !given.some((g) => g.toLowerCase() === f.toLowerCase()));
        if (name === null) this.flags = next;
        else this.setVariable(name, next.join(' '));
        return;
      }
      case 'set': {
        let value = this.expand(c.value);
        for (const m of c.modifiers) value = applyModifier(m, value);
        this.setVariable(c.name, value);
        return;
      }
    }
  }

  private setVariable(name: string, value: string) {
    this.variables.set(
      name,
      value.length > this.limits.maxVariableSize ? value.slice(0, this.limits.maxVariableSize) : value,
    );
  }

  private defaultVacationSubject(): string {
    const subject = this.headerValues('subject')[0];
    return subject ? `Auto: ${subject}` : 'Automated reply';
  }

  /**
   * The flags an action stores: its :flags as given (Pigeonhole checks none there), else the
   * internal variable (setflag and addflag keep only valid flags in it).
   */
  private flagsOf(flags: Str[] | null): string[] {
    return flags ? flagList(flags.map((f) => this.expand(f))) : [...this.flags];
  }

  /** `${name}` and `${N}` replaced when the script requires variables (RFC 5229 §3). */
  private expand(s: Str): string {
    if (!s.dynamic) return s.text;
    this.spend(1);
    return s.text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+)\}/g, (_whole, name: string) => {
      if (/^[0-9]/.test(name)) return this.matchVariables[Number(name)] ?? '';
      return this.variables.get(name.toLowerCase()) ?? '';
    });
  }

  private headers(): HeaderField[] {
    this.headerCache ??= [...this.host.headers()];
    return this.headerCache;
  }

  private valueCache = new Map<string, string[]>();
  private fieldCache = new Map<string, HeaderField[]>();
  private addressCache = new Map<string, ParsedAddress[] | null>();

  /** The header fields of a name, in order (looked up once per run: a script tests From in rule after rule). */
  private fieldsNamed(name: string): HeaderField[] {
    const lower = name.toLowerCase();
    let fields = this.fieldCache.get(lower);
    if (!fields) {
      fields = this.headers().filter((f) => f.name.toLowerCase() === lower);
      this.fieldCache.set(lower, fields);
    }
    return fields;
  }

  /** A header value's addresses, parsed once per run (callers only read them). */
  private addressesOf(raw: string): ParsedAddress[] | null {
    let parsed = this.addressCache.get(raw);
    if (parsed === undefined) {
      parsed = parseAddressList(raw) ?? null;
      this.addressCache.set(raw, parsed);
    }
    return parsed;
  }

  /** Unfolded, decoded values of a header, in order (decoded once per run). */
  private headerValues(name: string): string[] {
    const lower = name.toLowerCase();
    let values = this.valueCache.get(lower);
    if (!values) {
      values = this.fieldsNamed(lower).map((h) => decodeMimeWords(unfold(h.value)));
      this.valueCache.set(lower, values);
    }
    return values;
  }

  private pick<T>(values: T[], index?: IndexSpec): T[] {
    if (!index) return values;
    const i = index.last ? values.length - index.index : index.index - 1;
    const v = values[i];
    return v === undefined ? [] : [v];
  }

  private match(spec: MatchSpec, values: string[], keys: Str[]): boolean {
    const outcome = matchValues(
      spec,
      values,
      keys.map((k) => this.expand(k)),
      this,
    );
    if (outcome.matched && outcome.captures && this.variablesOn)
      this.matchVariables = outcome.captures.map((c) =>
        c.length > this.limits.maxVariableSize ? c.slice(0, this.limits.maxVariableSize) : c,
      );
    return outcome.matched;
  }

  /** The parts to match, or for :count one value per address whether or not it has the part (Pigeonhole). */
  private partsOrCount(addresses: ParsedAddress[], t: { match: MatchSpec; part: AddressPart }): string[] {
    return t.match.type === 'count' ? addresses.map(() => '') : this.addressParts(addresses, t.part);
  }

  private addressParts(addresses: ParsedAddress[], part: AddressPart): string[] {
    const out: string[] = [];
    for (const a of addresses) {
      const local = a.localpart;
      const plus = local.indexOf('+');
      switch (part) {
        case 'all':
          out.push(`${local}@${a.domain}`);
          break;
        case 'localpart':
          out.push(local);
          break;
        case 'domain':
          out.push(a.domain);
          break;
        case 'user':
          out.push(plus < 0 ? local : local.slice(0, plus));
          break;
        case 'detail':
          if (plus >= 0) out.push(local.slice(plus + 1));
          break;
      }
    }
    return out;
  }

  private test(t: Test): boolean {
    this.spend(1);
    switch (t.type) {
      case 'true':
        return true;
      case 'false':
        return false;
      case 'not':
        return !this.test(t.test);
      case 'allof':
        return t.tests.every((x) => this.test(x));
      case 'anyof':
        return t.tests.some((x) => this.test(x));
      case 'header': {
        // :index counts the fields of all the named headers together, in the order they are named.
        const values = this.pick(
          t.headers.flatMap((h) => this.headerValues(this.expand(h))),
          t.index,
        );
        return this.match(t.match, values, t.keys);
      }
      case 'address': {
        const fields = this.pick(
          t.headers.flatMap((h) => this.fieldsNamed(this.expand(h))),
          t.index,
        );
        const values: string[] = [];
        for (const f of fields) {
          const raw = unfold(f.value);
          // A value with no address in it ("undisclosed-recipients:;", or not an address at all) is
          // matched whole by :all, as Pigeonhole does.
          const parsed = this.addressesOf(raw);
          // (:count counts such a value as one.)
          if (parsed?.length) values.push(...this.partsOrCount(parsed, t));
          else if (t.part === 'all' || t.match.type === 'count') values.push(decodeMimeWords(raw));
        }
        return this.match(t.match, values, t.keys);
      }
      case 'envelope': {
        const env = this.host.envelope();
        const values: string[] = [];
        for (const p of t.parts) {
          const part = this.expand(p).toLowerCase();
          const address = part === 'from' ? env.from : part === 'to' ? env.to : null;
          if (address === null) continue;
          if (address === '') {
            if (t.part === 'all') values.push('');
            continue;
          }
          const parsed = parseAddressList(address);
          if (parsed) values.push(...this.partsOrCount(parsed, t));
        }
        return this.match(t.match, values, t.keys);
      }
      case 'exists':
        return t.headers.every((h) => {
          const name = this.expand(h).toLowerCase();
          return this.fieldsNamed(name).length > 0;
        });
      case 'size':
        return t.over ? this.host.size() > t.limit : this.host.size() < t.limit;
      case 'body':
        // Pigeonhole's body test sets no match variables.
        return matchValues(
          t.match,
          this.bodyValues(t),
          t.keys.map((k) => this.expand(k)),
          this,
        ).matched;
      case 'hasflag': {
        const values = t.variables
          ? flagList(t.variables.map((v) => this.variables.get(this.expand(v).toLowerCase()) ?? ''))
          : this.flags;
        const keys = t.match.type === 'count' ? t.keys : t.keys.flatMap((k) => splitKey(k));
        return this.match(t.match, values, keys);
      }
      case 'date': {
        const header = this.expand(t.header);
        const part = this.expand(t.datePart);
        const values: string[] = [];
        // Without :index only the first field counts (as in Pigeonhole).
        const all = this.headerValues(header);
        for (const raw of t.index ? this.pick(all, t.index) : all.slice(0, 1)) {
          const text = header.toLowerCase() === 'received' ? raw.slice(raw.lastIndexOf(';') + 1) : raw;
          const date = parseRfc5322Date(text);
          if (!date) continue;
          const shown = this.inZone(date, t.zone);
          const v = datePart(shown, part);
          if (v !== null) values.push(v);
        }
        return this.match(t.match, values, t.keys);
      }
      case 'currentdate': {
        const date: ZonedDate = { time: this.host.now().getTime(), offsetMinutes: 0 };
        const v = datePart(this.inZone(date, t.zone), this.expand(t.datePart));
        return this.match(t.match, v === null ? [] : [v], t.keys);
      }
      case 'string': {
        const values = t.sources.map((s) => this.expand(s));
        // RFC 5229 §5: for :count, empty strings are not counted.
        return this.match(t.match, t.match.type === 'count' ? values.filter(Boolean) : values, t.keys);
      }
      case 'mailboxexists':
        return t.mailboxes.every((m) => this.host.mailboxExists(this.expand(m)));
      case 'spamtest':
        return this.match(t.match, [spamtestValue(this.host.spamScore?.() ?? null, t.percent)], t.keys);
    }
  }

  private inZone(date: ZonedDate, zone: Str | 'original' | null): ZonedDate {
    if (zone === 'original') return date;
    const offset = zone ? parseZone(this.expand(zone)) : null;
    return { time: date.time, offsetMinutes: offset ?? this.host.zoneOffsetMinutes?.() ?? 0 };
  }

  private bodyValues(t: Extract<Test, { type: 'body' }>): string[] {
    if (t.transform === 'raw') return [this.host.rawBody()];
    const parts = this.host.bodyParts();
    if (t.transform === 'text')
      return parts
        .filter((p) => p.contentType.startsWith('text/'))
        .map((p) => (p.contentType === 'text/html' ? htmlToText(p.text) : p.text));
    const wanted = t.contentTypes.map((c) => asciiFold(this.expand(c)));
    return parts
      .filter((p) =>
        wanted.some(
          (w) => w === '' || p.contentType === w || (!w.includes('/') && p.contentType.startsWith(`${w}/`)),
        ),
      )
      .map((p) => p.text);
  }
}

function splitKey(k: Str): Str[] {
  return k.text
    .split(/\s+/)
    .filter(Boolean)
    .map((text) => ({ ...k, text }));
}

class BudgetSpent extends Error {}
class TimeUp extends Error {}

/** The runtime error of a run stopped at its time limit (a host that stops a run itself says the same). */
export const tookTooLong = (timeLimitMs: number) =>
  `the filter took too long (more than ${timeLimitMs} ms) and was stopped`;

function applyModifier(m: SetModifier, value: string): string {
  switch (m) {
    // Case modifiers change ASCII letters only, as Pigeonhole does ("отчёт" stays as it is).
    case 'lower':
      return value.replace(/[A-Z]/g, (c) => c.toLowerCase());
    case 'upper':
      return value.replace(/[a-z]/g, (c) => c.toUpperCase());
    case 'lowerfirst':
      return value.replace(/^[A-Z]/, (c) => c.toLowerCase());
    case 'upperfirst':
      return value.replace(/^[a-z]/, (c) => c.toUpperCase());
    case 'quotewildcard':
      return value.replace(/[*?\\]/g, '\\$&');
    case 'quoteregex':
      return value.replace(/[\\^$.[\]|()?*+{}]/g, '\\$&');
    case 'length':
      return String([...value].length);
  }
}

/** `\seen` → `\Seen`; keywords as they are. */
export function canonicalFlag(flag: string): string {
  const lower = flag.toLowerCase();
  if (systemFlags.includes(lower)) return `\\${lower.charAt(1).toUpperCase()}${lower.slice(2)}`;
  return flag;
}

/**
 * RFC 5235 §3.2: the spam test's value from the scorer's score and its spam threshold — "0" when the message was not
 * tested, else "1" (clearly not spam) to "10" (at or past the threshold, clearly spam); with :percent (RFC 5235 §3.3)
 * 0 to 100, the score's share of the threshold.
 */
export function spamtestValue(spam: { score: number; required: number } | null, percent: boolean): string {
  if (!spam || !Number.isFinite(spam.score)) return '0';
  const share = spam.required > 0 ? Math.max(0, spam.score) / spam.required : spam.score > 0 ? 1 : 0;
  if (percent) return String(Math.min(100, Math.round(share * 100)));
  return String(Math.min(10, Math.max(1, 1 + Math.round(share * 9))));
}
