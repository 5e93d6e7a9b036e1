import { SieveSyntaxError, type Position } from './errors.js';
import { decodeEncodedCharacters } from './encoded-character.js';
import { parse, type Argument, type CommandNode, type StringArg, type TestNode } from './parser.js';
import { compileRegex } from './regex.js';
import { isValidAddress } from './address.js';
import { defaultLimits, type SieveLimits } from './limits.js';

/** Extensions this interpreter implements (the names `require` accepts). */
export const supportedExtensions = [
  'fileinto',
  'mailbox',
  'imap4flags',
  'envelope',
  'body',
  'copy',
  'variables',
  'relational',
  'comparator-i;ascii-numeric',
  'comparator-i;octet',
  'comparator-i;ascii-casemap',
  'subaddress',
  'regex',
  'date',
  'index',
  'encoded-character',
  'reject',
  'ereject',
  'vacation',
  'vacation-seconds',
  'spamtest',
  'spamtestplus',
] as const;
export type Extension = (typeof supportedExtensions)[number];

/** A string from the script; `dynamic` when it holds `${…}` to be expanded at run time (variables). */
export interface Str {
  text: string;
  dynamic: boolean;
  pos: Position;
}

export type ComparatorName = 'i;octet' | 'i;ascii-casemap' | 'i;ascii-numeric';
export type Relation = 'gt' | 'ge' | 'lt' | 'le' | 'eq' | 'ne';
export interface MatchSpec {
  comparator: ComparatorName;
  type: 'is' | 'contains' | 'matches' | 'regex' | 'value' | 'count';
  relation?: Relation;
}
export type AddressPart = 'all' | 'localpart' | 'domain' | 'user' | 'detail';
export interface IndexSpec {
  index: number;
  last: boolean;
}
export type Test =
  | { type: 'true' | 'false'; pos: Position }
  | { type: 'not'; test: Test; pos: Position }
  | { type: 'allof' | 'anyof'; tests: Test[]; pos: Position }
  | { type: 'header'; headers: Str[]; keys: Str[]; match: MatchSpec; index?: IndexSpec; pos: Position }
  | {
      type: 'address';
      headers: Str[];
      keys: Str[];
      match: MatchSpec;
      part: AddressPart;
      index?: IndexSpec;
      pos: Position;
    }
  | { type: 'envelope'; parts: Str[]; keys: Str[]; match: MatchSpec; part: AddressPart; pos: Position }
  | { type: 'exists'; headers: Str[]; pos: Position }
  | { type: 'size'; over: boolean; limit: number; pos: Position }
  | {
      type: 'body';
      transform: 'raw' | 'content' | 'text';
      contentTypes: Str[];
      keys: Str[];
      match: MatchSpec;
      pos: Position;
    }
  | { type: 'hasflag'; variables: Str[] | null; keys: Str[]; match: MatchSpec; pos: Position }
  | {
      type: 'date';
      zone: Str | 'original' | null;
      header: Str;
      datePart: Str;
      keys: Str[];
      match: MatchSpec;
      index?: IndexSpec;
      pos: Position;
    }
  | { type: 'currentdate'; zone: Str | null; datePart: Str; keys: Str[]; match: MatchSpec; pos: Position }
  /** RFC 5235: the spam score, "0" untested, "1" (not spam) to "10" (spam); with :percent 0 to 100. */
  | { type: 'spamtest'; percent: boolean; keys: Str[]; match: MatchSpec; pos: Position }
  | { type: 'string'; sources: Str[]; keys: Str[]; match: MatchSpec; pos: Position }
  | { type: 'mailboxexists'; mailboxes: Str[]; pos: Position };

export type SetModifier =
  'lower' | 'upper' | 'lowerfirst' | 'upperfirst' | 'quotewildcard' | 'quoteregex' | 'length';

export type Command =
  | { type: 'if'; branches: { test: Test | null; block: Command[] }[]; pos: Position }
  | { type: 'stop' | 'discard'; pos: Position }
  | { type: 'keep'; flags: Str[] | null; pos: Position }
  | { type: 'fileinto'; mailbox: Str; copy: boolean; create: boolean; flags: Str[] | null; pos: Position }
  | { type: 'redirect'; address: Str; copy: boolean; pos: Position }
  | { type: 'reject' | 'ereject'; reason: Str; pos: Position }
  | {
      type: 'vacation';
      seconds: number | null;
      unit: 'days' | 'seconds';
      subject: Str | null;
      from: Str | null;
      addresses: Str[];
      mime: boolean;
      handle: Str | null;
      reason: Str;
      pos: Position;
    }
  | { type: 'setflag' | 'addflag' | 'removeflag'; variable: Str | null; flags: Str[]; pos: Position }
  | { type: 'set'; name: string; value: Str; modifiers: SetModifier[]; pos: Position };

export interface Script {
  commands: Command[];
  extensions: ReadonlySet<Extension>;
}

export interface CompileOptions {
  /**
   * Check code that can never run, such as the block of `if false` or the tests after a constant
   * `true` in anyof (default true). Pigeonhole skips it; the differential test turns this off to
   * show that this is the only difference such a script makes.
   */
  checkUnreachable?: boolean;
  /**
   * Compile as if the script required every extension it uses (a filter's block, whose `require` line is computed
   * for the whole script): the Script's `extensions` are then the ones it uses.
   */
  inferRequire?: boolean;
}

/** Reads and checks a whole script: syntax, `require`, arguments and tags. Throws SieveSyntaxError. */
export function compile(
  source: string,
  limits: Partial<SieveLimits> = {},
  options: CompileOptions = {},
): Script {
  const lim = { ...defaultLimits, ...limits };
  // A UTF-16 unit is at least one UTF-8 byte: a long string is refused without encoding it.
  if (source.length > lim.maxScriptSize || new TextEncoder().encode(source).length > lim.maxScriptSize)
    throw new SieveSyntaxError(`the script is larger than the limit of ${lim.maxScriptSize} bytes`, {
      line: 1,
      column: 1,
    });
  const tree = parse(source, { maxNesting: lim.maxNesting });
  const extensions = new Set<Extension>();
  const compiler = new Compiler(
    extensions,
    options.checkUnreachable ?? true,
    options.inferRequire ?? false,
    lim.maxRegexSize,
  );
  return { commands: compiler.block(tree, true), extensions };
}

/** Whether a test is always true or always false (literal true/false, not, allof, anyof), else null. */
export function constantOf(test: Test): boolean | null {
  switch (test.type) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'not': {
      const inner = constantOf(test.test);
      return inner === null ? null : !inner;
    }
    case 'allof':
    case 'anyof': {
      const decider = test.type === 'anyof';
      const values = test.tests.map(constantOf);
      if (values.includes(decider)) return decider;
      return values.every((v) => v === !decider) ? !decider : null;
    }
    default:
      return null;
  }
}

const fail = (message: string, pos: Position): never => {
  throw new SieveSyntaxError(message, pos);
};

/** What a tag takes after it. */
type TagValue = 'none' | 'string' | 'stringlist' | 'number';
interface TagSpec {
  value: TagValue;
  /** Tags of one group are mutually exclusive. */
  group?: string;
  ext?: Extension | Extension[];
}
interface ReadArgs {
  tags: Map<string, { value: Argument | null; pos: Position }>;
  positional: Argument[];
}

const matchTags: Record<string, TagSpec> = {
  comparator: { value: 'string' },
  is: { value: 'none', group: 'match' },
  contains: { value: 'none', group: 'match' },
  matches: { value: 'none', group: 'match' },
  regex: { value: 'none', group: 'match', ext: 'regex' },
  value: { value: 'string', group: 'match', ext: 'relational' },
  count: { value: 'string', group: 'match', ext: 'relational' },
};
const addressPartTags: Record<string, TagSpec> = {
  all: { value: 'none', group: 'part' },
  localpart: { value: 'none', group: 'part' },
  domain: { value: 'none', group: 'part' },
  user: { value: 'none', group: 'part', ext: 'subaddress' },
  detail: { value: 'none', group: 'part', ext: 'subaddress' },
};
const indexTags: Record<string, TagSpec> = {
  index: { value: 'number', ext: 'index' },
  last: { value: 'none', ext: 'index' },
};
const variableNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `${name}`, `${ns.name}` or `${1}`: what makes a string change at run time (RFC 5229 §3). */
const variableReference = /\$\{(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*|[0-9]+)\}/;

/**
 * The headers the address test may read (RFC 5228 §5.1 lets an implementation restrict it to
 * headers known to hold addresses); the same list as Pigeonhole's, so a script behaves alike.
 */
const addressHeaderNames = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'sender',
  'resent-from',
  'resent-to',
  'reply-to',
  'resent-reply-to',
  'resent-sender',
  'resent-cc',
  'resent-bcc',
  'for-approval',
  'for-handling',
  'for-comment',
  'apparently-to',
  'errors-to',
  'delivered-to',
  'return-receipt-to',
  'x-admin',
  'read-receipt-to',
  'x-confirm-reading-to',
  'return-receipt-requested',
  'registered-mail-reply-requested-to',
  'mail-followup-to',
  'mail-reply-to',
  'abuse-reports-to',
  'x-complaints-to',
  'x-report-abuse-to',
  'x-beenthere',
  'x-original-to',
]);

class Compiler {
  constructor(
    private readonly extensions: Set<Extension>,
    private readonly checkUnreachable: boolean,
    private readonly inferRequire: boolean,
    private readonly maxRegexSize: number,
  ) {}

  private has(ext: Extension) {
    return this.extensions.has(ext);
  }
  /** Under inferRequire an extension counts as required once the script is found to use it. */
  private use(ext: Extension) {
    this.extensions.add(ext);
    if (ext === 'vacation-seconds') this.extensions.add('vacation');
  }

  block(nodes: CommandNode[], topLevel: boolean): Command[] {
    const out: Command[] = [];
    let requiresAllowed = topLevel;
    for (let n = 0; n < nodes.length; n++) {
      const node = nodes[n]!;
      if (node.name === 'require') {
        if (!requiresAllowed)
          fail('require must come before any other command, at the top of the script', node.pos);
        this.require(node);
        continue;
      }
      requiresAllowed = false;
      if (node.name === 'elsif' || node.name === 'else')
        fail(`${node.name} must follow an if or elsif block`, node.pos);
      if (node.name === 'if') {
        const branches: { test: Test | null; block: Command[] }[] = [];
        let settled = false; // a branch whose test is constant true: the rest never runs
        for (let branch: CommandNode | undefined = node; branch;) {
          if (!settled || this.checkUnreachable) {
            const b = this.branch(branch, branch.name !== 'else');
            branches.push(b);
            settled ||= !b.test || constantOf(b.test) === true;
          }
          if (branch.name === 'else') break;
          const next: CommandNode | undefined = nodes[n + 1];
          if (!next || (next.name !== 'elsif' && next.name !== 'else')) break;
          n++;
          branch = next;
        }
        out.push({ type: 'if', branches, pos: node.pos });
        continue;
      }
      out.push(this.command(node));
    }
    return out;
  }

  private require(node: CommandNode) {
    this.noTests(node);
    this.noBlock(node);
    if (node.args.length !== 1) fail('require takes one string or string list', node.pos);
    for (const s of this.strings(node.args[0]!, 'require')) {
      const name = s.value.toLowerCase();
      if (!(supportedExtensions as readonly string[]).includes(name))
        fail(`unsupported extension "${s.value}"`, s.pos);
      this.extensions.add(name as Extension);
      // ereject's text says reject implies it in Pigeonhole; vacation-seconds implies vacation.
      if (name === 'vacation-seconds') this.extensions.add('vacation');
    }
  }

  private branch(node: CommandNode, withTest: boolean): { test: Test | null; block: Command[] } {
    if (node.args.length) fail(`${node.name} takes no arguments`, node.args[0]!.pos);
    if (withTest && (node.tests.length !== 1 || node.testList))
      fail(`${node.name} needs exactly one test`, node.pos);
    if (!withTest) this.noTests(node);
    if (!node.block) fail(`${node.name} needs a block`, node.pos);
    const test = withTest ? this.test(node.tests[0]!) : null;
    if (test && constantOf(test) === false && !this.checkUnreachable) return { test, block: [] };
    return { test, block: this.block(node.block!, false) };
  }

  private noTests(node: CommandNode | TestNode) {
    if (node.tests.length) fail(`${node.name} takes no test`, node.tests[0]!.pos);
  }
  private noBlock(node: CommandNode) {
    if (node.block) fail(`${node.name} takes no block`, node.pos);
  }

  private need(ext: Extension | Extension[], what: string, pos: Position) {
    const list = Array.isArray(ext) ? ext : [ext];
    if (this.inferRequire && !list.some((e) => this.has(e))) this.use(list[0]!);
    if (!list.some((e) => this.has(e))) fail(`${what} needs require "${list[0]}"`, pos);
  }

  /** Splits arguments into known tags (with their values) and positional ones. */
  private read(node: CommandNode | TestNode, tags: Record<string, TagSpec>): ReadArgs {
    const result: ReadArgs = { tags: new Map(), positional: [] };
    const groups = new Map<string, string>();
    const args = node.args;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg.kind !== 'tag') {
        result.positional.push(arg);
        continue;
      }
      if (result.positional.length)
        fail(`the tag :${arg.name} comes after a positional argument of ${node.name}`, arg.pos);
      const spec = tags[arg.name];
      if (!spec) fail(`${node.name} has no tag :${arg.name}`, arg.pos);
      if (spec!.ext) this.need(spec!.ext, `the tag :${arg.name}`, arg.pos);
      if (result.tags.has(arg.name)) fail(`the tag :${arg.name} is given twice`, arg.pos);
      if (spec!.group) {
        const other = groups.get(spec!.group);
        if (other) fail(`the tags :${other} and :${arg.name} cannot be used together`, arg.pos);
        groups.set(spec!.group, arg.name);
      }
      let value: Argument | null = null;
      if (spec!.value !== 'none') {
        const v = args[++i];
        const ok =
          v &&
          (spec!.value === 'number'
            ? v.kind === 'number'
            : spec!.value === 'string'
              ? v.kind === 'string'
              : v.kind === 'string' || v.kind === 'stringlist');
        if (!ok)
          fail(
            `the tag :${arg.name} needs a ${spec!.value.replace('stringlist', 'string list')}`,
            (v ?? arg).pos,
          );
        value = v!;
      }
      result.tags.set(arg.name, { value, pos: arg.pos });
    }
    return result;
  }

  private positional(
    node: CommandNode | TestNode,
    read: ReadArgs,
    kinds: ('string' | 'stringlist' | 'number')[],
  ) {
    if (read.positional.length !== kinds.length)
      fail(
        `${node.name} needs ${kinds.length} positional argument(s) but ${read.positional.length} are given`,
        read.positional[kinds.length]?.pos ?? node.pos,
      );
    kinds.forEach((kind, i) => {
      const a = read.positional[i]!;
      const ok = kind === 'stringlist' ? a.kind === 'string' || a.kind === 'stringlist' : a.kind === kind;
      if (!ok)
        fail(
          `argument ${i + 1} of ${node.name} must be a ${kind.replace('stringlist', 'string list')}`,
          a.pos,
        );
    });
  }

  private strings(arg: Argument, what: string): StringArg[] {
    if (arg.kind === 'string') return [arg];
    if (arg.kind === 'stringlist') return arg.values;
    return fail(`${what} needs a string or string list`, arg.pos);
  }

  private str(arg: StringArg): Str {
    let text = arg.value;
    if (this.inferRequire) {
      if (!this.has('encoded-character') && decodeEncodedCharacters(text) !== text)
        this.use('encoded-character');
      if (!this.has('variables') && variableReference.test(text)) this.use('variables');
    }
    if (this.has('encoded-character')) text = decodeEncodedCharacters(text);
    if (this.has('variables')) {
      const namespaced = /\$\{([A-Za-z_][A-Za-z0-9_]*)\.[A-Za-z_][A-Za-z0-9_.]*\}/.exec(text);
      if (namespaced) fail(`a variable in the unknown namespace "${namespaced[1]}"`, arg.pos);
    }
    return { text, dynamic: this.has('variables') && variableReference.test(text), pos: arg.pos };
  }
  private strList(arg: Argument): Str[] {
    return this.strings(arg, 'this argument').map((s) => this.str(s));
  }
  private tagStr(read: ReadArgs, name: string): Str | null {
    const t = read.tags.get(name);
    return t ? this.str(t.value as StringArg) : null;
  }

  private matchSpec(read: ReadArgs, keys: Str[]): MatchSpec {
    const comparatorTag = read.tags.get('comparator');
    let comparator: ComparatorName = 'i;ascii-casemap';
    if (comparatorTag) {
      const name = this.str(comparatorTag.value as StringArg).text.toLowerCase();
      if (name === 'i;ascii-numeric')
        this.need('comparator-i;ascii-numeric', 'the comparator i;ascii-numeric', comparatorTag.pos);
      else if (name !== 'i;octet' && name !== 'i;ascii-casemap')
        fail(`unknown comparator "${name}"`, comparatorTag.pos);
      comparator = name as ComparatorName;
    }
    let type: MatchSpec['type'] = 'is';
    let relation: Relation | undefined;
    for (const t of ['is', 'contains', 'matches', 'regex', 'value', 'count'] as const) {
      const tag = read.tags.get(t);
      if (!tag) continue;
      type = t;
      if (tag.value) {
        // Pigeonhole reads the operator as written (encoded-character does not apply to it).
        const rel = (tag.value as StringArg).value.toLowerCase();
        if (!['gt', 'ge', 'lt', 'le', 'eq', 'ne'].includes(rel))
          fail(`unknown relational operator "${rel}"`, tag.value.pos);
        relation = rel as Relation;
      }
    }
    if (comparator === 'i;ascii-numeric' && (type === 'contains' || type === 'matches' || type === 'regex'))
      fail(`the comparator i;ascii-numeric cannot be used with :${type}`, read.tags.get(type)!.pos);
    if (type === 'regex')
      for (const key of keys)
        if (!key.dynamic) {
          if (key.text.length > this.maxRegexSize)
            throw new SieveSyntaxError(
              `the regular expression is ${key.text.length} characters long; at most ${this.maxRegexSize} are allowed`,
              key.pos,
              'regex_too_long',
            );
          const problem = compileRegex(key.text, comparator).error;
          if (problem) fail(`invalid regular expression "${key.text}": ${problem}`, key.pos);
        }
    return relation ? { comparator, type, relation } : { comparator, type };
  }

  private addressPart(read: ReadArgs): AddressPart {
    for (const p of ['localpart', 'domain', 'user', 'detail'] as const) if (read.tags.has(p)) return p;
    return 'all';
  }
  private index(read: ReadArgs): IndexSpec | undefined {
    const t = read.tags.get('index');
    if (!t) {
      if (read.tags.has('last')) fail('the tag :last needs :index', read.tags.get('last')!.pos);
      return undefined;
    }
    const index = (t.value as { value: number }).value;
    if (index < 1) fail(':index must be 1 or more', t.pos);
    return { index, last: read.tags.has('last') };
  }

  test(node: TestNode): Test {
    const pos = node.pos;
    const noArgsOrTests = () => {
      if (node.args.length) fail(`${node.name} takes no arguments`, node.args[0]!.pos);
      this.noTests(node);
    };
    const noTestsHere = () => this.noTests(node);
    switch (node.name) {
      case 'true':
      case 'false':
        noArgsOrTests();
        return { type: node.name, pos };
      case 'not':
        if (node.args.length) fail('not takes no arguments', node.args[0]!.pos);
        if (node.tests.length !== 1 || node.testList) fail('not needs exactly one test', pos);
        return { type: 'not', test: this.test(node.tests[0]!), pos };
      case 'allof':
      case 'anyof':
        if (node.args.length) fail(`${node.name} takes no arguments`, node.args[0]!.pos);
        if (!node.testList) fail(`${node.name} needs a test list in parentheses`, pos);
        {
          // Constant folding as Pigeonhole does it; the tests after the deciding one are checked
          // only when checkUnreachable is on.
          const decider = node.name === 'anyof';
          const tests: Test[] = [];
          for (const t of node.tests) {
            const compiled = this.test(t);
            tests.push(compiled);
            if (constantOf(compiled) === decider && !this.checkUnreachable) break;
          }
          return { type: node.name, tests, pos };
        }
      case 'header': {
        noTestsHere();
        const r = this.read(node, { ...matchTags, ...indexTags });
        this.positional(node, r, ['stringlist', 'stringlist']);
        const keys = this.strList(r.positional[1]!);
        const index = this.index(r);
        return {
          type: 'header',
          headers: this.strList(r.positional[0]!),
          keys,
          match: this.matchSpec(r, keys),
          ...(index ? { index } : {}),
          pos,
        };
      }
      case 'address': {
        noTestsHere();
        const r = this.read(node, { ...matchTags, ...addressPartTags, ...indexTags });
        this.positional(node, r, ['stringlist', 'stringlist']);
        const keys = this.strList(r.positional[1]!);
        const index = this.index(r);
        const headers = this.strList(r.positional[0]!);
        for (const h of headers)
          if (!h.dynamic && !addressHeaderNames.has(h.text.toLowerCase()))
            fail(`the address test cannot read "${h.text}": it is not a header that holds addresses`, h.pos);
        return {
          type: 'address',
          headers,
          keys,
          match: this.matchSpec(r, keys),
          part: this.addressPart(r),
          ...(index ? { index } : {}),
          pos,
        };
      }
      case 'envelope': {
        this.need('envelope', 'the envelope test', pos);
        noTestsHere();
        const r = this.read(node, { ...matchTags, ...addressPartTags });
        this.positional(node, r, ['stringlist', 'stringlist']);
        const keys = this.strList(r.positional[1]!);
        const parts = this.strList(r.positional[0]!);
        for (const p of parts)
          if (!p.dynamic && !['from', 'to'].includes(p.text.toLowerCase()))
            fail(`unknown envelope part "${p.text}"`, p.pos);
        return {
          type: 'envelope',
          parts,
          keys,
          match: this.matchSpec(r, keys),
          part: this.addressPart(r),
          pos,
        };
      }
      case 'exists': {
        noTestsHere();
        const r = this.read(node, {});
        this.positional(node, r, ['stringlist']);
        return { type: 'exists', headers: this.strList(r.positional[0]!), pos };
      }
      case 'size': {
        noTestsHere();
        const r = this.read(node, {
          over: { value: 'none', group: 'size' },
          under: { value: 'none', group: 'size' },
        });
        if (!r.tags.size) fail('size needs :over or :under', pos);
        this.positional(node, r, ['number']);
        return {
          type: 'size',
          over: r.tags.has('over'),
          limit: (r.positional[0] as { value: number }).value,
          pos,
        };
      }
      case 'body': {
        this.need('body', 'the body test', pos);
        noTestsHere();
        const r = this.read(node, {
          ...matchTags,
          raw: { value: 'none', group: 'transform' },
          content: { value: 'stringlist', group: 'transform' },
          text: { value: 'none', group: 'transform' },
        });
        this.positional(node, r, ['stringlist']);
        const keys = this.strList(r.positional[0]!);
        const content = r.tags.get('content');
        return {
          type: 'body',
          transform: r.tags.has('raw') ? 'raw' : content ? 'content' : 'text',
          contentTypes: content ? this.strList(content.value!) : [],
          keys,
          match: this.matchSpec(r, keys),
          pos,
        };
      }
      case 'hasflag': {
        this.need('imap4flags', 'the hasflag test', pos);
        noTestsHere();
        const r = this.read(node, matchTags);
        if (r.positional.length === 1) this.positional(node, r, ['stringlist']);
        else this.positional(node, r, ['stringlist', 'stringlist']);
        if (r.positional.length === 2) this.need('variables', 'hasflag with a variable list', pos);
        const keys = this.strList(r.positional[r.positional.length - 1]!);
        const variables = r.positional.length === 2 ? this.strList(r.positional[0]!) : null;
        // Names are checked as written: encoded-character does not make a name (as in Pigeonhole).
        if (variables) for (const v of this.strings(r.positional[0]!, 'hasflag')) this.checkVariableName(v);
        return { type: 'hasflag', variables, keys, match: this.matchSpec(r, keys), pos };
      }
      case 'date': {
        this.need('date', 'the date test', pos);
        noTestsHere();
        const r = this.read(node, {
          ...matchTags,
          ...indexTags,
          zone: { value: 'string', group: 'zone' },
          originalzone: { value: 'none', group: 'zone' },
        });
        this.positional(node, r, ['string', 'string', 'stringlist']);
        const keys = this.strList(r.positional[2]!);
        const datePart = this.datePart(r.positional[1] as StringArg);
        const index = this.index(r);
        return {
          type: 'date',
          zone: r.tags.has('originalzone') ? 'original' : this.tagStr(r, 'zone'),
          header: this.str(r.positional[0] as StringArg),
          datePart,
          keys,
          match: this.matchSpec(r, keys),
          ...(index ? { index } : {}),
          pos,
        };
      }
      case 'currentdate': {
        this.need('date', 'the currentdate test', pos);
        noTestsHere();
        const r = this.read(node, { ...matchTags, zone: { value: 'string' } });
        this.positional(node, r, ['string', 'stringlist']);
        const keys = this.strList(r.positional[1]!);
        return {
          type: 'currentdate',
          zone: this.tagStr(r, 'zone'),
          datePart: this.datePart(r.positional[0] as StringArg),
          keys,
          match: this.matchSpec(r, keys),
          pos,
        };
      }
      case 'spamtest': {
        this.need(['spamtest', 'spamtestplus'], 'the spamtest test', pos);
        noTestsHere();
        const r = this.read(node, { ...matchTags, percent: { value: 'none' } });
        const percent = r.tags.has('percent');
        if (percent) this.need('spamtestplus', 'spamtest :percent', pos);
        this.positional(node, r, ['string']);
        const keys = this.strList(r.positional[0]!);
        return { type: 'spamtest', percent, keys, match: this.matchSpec(r, keys), pos };
      }
      case 'string': {
        this.need('variables', 'the string test', pos);
        noTestsHere();
        const r = this.read(node, matchTags);
        this.positional(node, r, ['stringlist', 'stringlist']);
        const keys = this.strList(r.positional[1]!);
        // Pigeonhole compares "string" with i;octet unless told otherwise (RFC 5229 says
        // i;ascii-casemap); we follow the reference implementation.
        const match = this.matchSpec(r, keys);
        if (!r.tags.has('comparator')) match.comparator = 'i;octet';
        return { type: 'string', sources: this.strList(r.positional[0]!), keys, match, pos };
      }
      case 'mailboxexists': {
        this.need('mailbox', 'the mailboxexists test', pos);
        noTestsHere();
        const r = this.read(node, {});
        this.positional(node, r, ['stringlist']);
        return { type: 'mailboxexists', mailboxes: this.strList(r.positional[0]!), pos };
      }
      default:
        return fail(`unknown test "${node.name}"`, pos);
    }
  }

  /**
   * The date part. An unknown one is only a warning in Pigeonhole (the test is then false), so it
   * is not refused here either.
   */
  private datePart(arg: StringArg): Str {
    return this.str(arg);
  }

  private checkVariableName(s: StringArg) {
    if (!variableNamePattern.test(s.value)) fail(`invalid variable name "${s.value}"`, s.pos);
  }

  private flagsTag(r: ReadArgs): Str[] | null {
    const t = r.tags.get('flags');
    return t ? this.strList(t.value!) : null;
  }

  command(node: CommandNode): Command {
    const pos = node.pos;
    if (node.name !== 'if') this.noBlock(node);
    const simple = () => {
      if (node.args.length) fail(`${node.name} takes no arguments`, node.args[0]!.pos);
      this.noTests(node);
    };
    const flagsTag: Record<string, TagSpec> = { flags: { value: 'stringlist', ext: 'imap4flags' } };
    const copyTag: Record<string, TagSpec> = { copy: { value: 'none', ext: 'copy' } };
    switch (node.name) {
      case 'stop':
      case 'discard':
        simple();
        return { type: node.name, pos };
      case 'keep': {
        this.noTests(node);
        const r = this.read(node, flagsTag);
        this.positional(node, r, []);
        return { type: 'keep', flags: this.flagsTag(r), pos };
      }
      case 'fileinto': {
        this.need('fileinto', 'the fileinto command', pos);
        this.noTests(node);
        const r = this.read(node, { ...flagsTag, ...copyTag, create: { value: 'none', ext: 'mailbox' } });
        this.positional(node, r, ['string']);
        return {
          type: 'fileinto',
          mailbox: this.str(r.positional[0] as StringArg),
          copy: r.tags.has('copy'),
          create: r.tags.has('create'),
          flags: this.flagsTag(r),
          pos,
        };
      }
      case 'redirect': {
        this.noTests(node);
        const r = this.read(node, copyTag);
        this.positional(node, r, ['string']);
        const address = this.str(r.positional[0] as StringArg);
        if (!address.dynamic && !isValidAddress(address.text))
          fail(`the redirect address "${address.text}" is not a valid address`, address.pos);
        return { type: 'redirect', address, copy: r.tags.has('copy'), pos };
      }
      case 'reject':
      case 'ereject': {
        this.need(node.name, `the ${node.name} command`, pos);
        this.noTests(node);
        const r = this.read(node, {});
        this.positional(node, r, ['string']);
        return { type: node.name, reason: this.str(r.positional[0] as StringArg), pos };
      }
      case 'vacation': {
        this.need('vacation', 'the vacation command', pos);
        this.noTests(node);
        const r = this.read(node, {
          days: { value: 'number', group: 'period' },
          seconds: { value: 'number', group: 'period', ext: 'vacation-seconds' },
          subject: { value: 'string' },
          from: { value: 'string' },
          addresses: { value: 'stringlist' },
          mime: { value: 'none' },
          handle: { value: 'string' },
        });
        this.positional(node, r, ['string']);
        const period = r.tags.get('days') ?? r.tags.get('seconds');
        const from = this.tagStr(r, 'from');
        if (from && !from.dynamic && !isValidAddress(from.text))
          fail(`the vacation :from "${from.text}" is not a valid address`, from.pos);
        return {
          type: 'vacation',
          seconds: period ? (period.value as { value: number }).value : null,
          unit: r.tags.has('seconds') ? 'seconds' : 'days',
          subject: this.tagStr(r, 'subject'),
          from,
          addresses: r.tags.has('addresses') ? this.strList(r.tags.get('addresses')!.value!) : [],
          mime: r.tags.has('mime'),
          handle: this.tagStr(r, 'handle'),
          reason: this.str(r.positional[0] as StringArg),
          pos,
        };
      }
      case 'setflag':
      case 'addflag':
      case 'removeflag': {
        this.need('imap4flags', `the ${node.name} command`, pos);
        this.noTests(node);
        const r = this.read(node, {});
        if (r.positional.length === 2) {
          this.need('variables', `${node.name} with a variable name`, pos);
          this.positional(node, r, ['string', 'stringlist']);
          const variable = this.str(r.positional[0] as StringArg);
          this.checkVariableName(r.positional[0] as StringArg);
          return { type: node.name, variable, flags: this.strList(r.positional[1]!), pos };
        }
        this.positional(node, r, ['stringlist']);
        return { type: node.name, variable: null, flags: this.strList(r.positional[0]!), pos };
      }
      case 'set': {
        this.need('variables', 'the set command', pos);
        this.noTests(node);
        const modifierTags: Record<string, TagSpec> = {
          lower: { value: 'none', group: 'case' },
          upper: { value: 'none', group: 'case' },
          lowerfirst: { value: 'none', group: 'first' },
          upperfirst: { value: 'none', group: 'first' },
          quotewildcard: { value: 'none', group: 'quote' },
          quoteregex: { value: 'none', group: 'quote', ext: 'regex' },
          length: { value: 'none' },
        };
        const r = this.read(node, modifierTags);
        this.positional(node, r, ['string', 'string']);
        const nameArg = r.positional[0] as StringArg;
        if (!variableNamePattern.test(nameArg.value))
          fail(`invalid variable name "${nameArg.value}"`, nameArg.pos);
        // RFC 5229 §4: higher precedence first (case 40, first 30, quote 20, length 10).
        const order: SetModifier[] = [
          'lower',
          'upper',
          'lowerfirst',
          'upperfirst',
          'quotewildcard',
          'quoteregex',
          'length',
        ];
        return {
          type: 'set',
          name: nameArg.value.toLowerCase(),
          value: this.str(r.positional[1] as StringArg),
          modifiers: order.filter((m) => r.tags.has(m)),
          pos,
        };
      }
      case 'if':
        return fail('if is handled by block', pos);
      default:
        if (
          ['true', 'false', 'header', 'address', 'exists', 'size', 'not', 'allof', 'anyof'].includes(
            node.name,
          )
        )
          fail(`"${node.name}" is a test, not a command`, pos);
        return fail(`unknown command "${node.name}"`, pos);
    }
  }
}
