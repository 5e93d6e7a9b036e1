import { SieveSyntaxError, type Position } from './errors.js';
import { tokenize, type Token } from './lexer.js';

export interface StringArg {
  kind: 'string';
  value: string;
  pos: Position;
}
export interface StringListArg {
  kind: 'stringlist';
  values: StringArg[];
  pos: Position;
}
export interface NumberArg {
  kind: 'number';
  value: number;
  pos: Position;
}
export interface TagArg {
  kind: 'tag';
  name: string;
  pos: Position;
}
export type Argument = StringArg | StringListArg | NumberArg | TagArg;

export interface TestNode {
  name: string;
  args: Argument[];
  tests: TestNode[];
  /** Whether the tests were written as a parenthesised list (allof/anyof) rather than one test. */
  testList: boolean;
  pos: Position;
}

export interface CommandNode {
  name: string;
  args: Argument[];
  tests: TestNode[];
  testList: boolean;
  /** The `{ … }` block, or null when the command ends with ";". */
  block: CommandNode[] | null;
  pos: Position;
}

export interface ParseOptions {
  /** Deepest allowed nesting of blocks and tests together. */
  maxNesting?: number;
}

/** Reads a script into its command tree (RFC 5228 §8.2); the meaning is checked by `compile`. */
export function parse(source: string, options: ParseOptions = {}): CommandNode[] {
  const maxNesting = options.maxNesting ?? 15;
  const tokens = tokenize(source);
  let at = 0;
  const peek = (): Token => tokens[at]!;
  const next = (): Token => tokens[at++]!;
  const describe = (t: Token) =>
    t.type === 'eof'
      ? 'the end of the script'
      : t.type === 'identifier'
        ? `"${t.value}"`
        : t.type === 'tag'
          ? `":${t.value}"`
          : t.type === 'string'
            ? 'a string'
            : t.type === 'number'
              ? 'a number'
              : `"${t.type}"`;
  const expect = (type: Token['type'], what: string): Token => {
    const t = next();
    if (t.type !== type) throw new SieveSyntaxError(`expected ${what} but found ${describe(t)}`, t.pos);
    return t;
  };
  const expectWord = (what: string): string => {
    const t = expect('identifier', what);
    return t.type === 'identifier' ? t.value : '';
  };
  const deeper = (depth: number, pos: Position) => {
    if (depth > maxNesting)
      throw new SieveSyntaxError(`nesting is deeper than the limit of ${maxNesting}`, pos);
    return depth;
  };

  function commands(depth: number, inBlock: boolean): CommandNode[] {
    const list: CommandNode[] = [];
    for (;;) {
      const t = peek();
      if (t.type === 'eof') {
        if (inBlock) throw new SieveSyntaxError('a block is missing its "}"', t.pos);
        return list;
      }
      if (t.type === '}') {
        if (!inBlock) throw new SieveSyntaxError('unexpected "}"', t.pos);
        return list;
      }
      list.push(command(depth));
    }
  }

  function command(depth: number): CommandNode {
    const pos = peek().pos;
    const name = expectWord('a command');
    const { args, tests, testList } = argumentsOf(depth);
    const end = next();
    if (end.type === ';') return { name, args, tests, testList, block: null, pos };
    if (end.type === '{') {
      const block = commands(deeper(depth + 1, end.pos), true);
      expect('}', '"}"');
      return { name, args, tests, testList, block, pos };
    }
    throw new SieveSyntaxError(
      `expected ";" or "{" after the ${name} command but found ${describe(end)}`,
      end.pos,
    );
  }

  function argumentsOf(depth: number): { args: Argument[]; tests: TestNode[]; testList: boolean } {
    const args: Argument[] = [];
    for (;;) {
      const t = peek();
      if (t.type === 'string') {
        next();
        args.push({ kind: 'string', value: t.value, pos: t.pos });
      } else if (t.type === 'number') {
        next();
        args.push({ kind: 'number', value: t.value, pos: t.pos });
      } else if (t.type === 'tag') {
        next();
        args.push({ kind: 'tag', name: t.value, pos: t.pos });
      } else if (t.type === '[') {
        next();
        const values: StringArg[] = [];
        for (;;) {
          const s = expect('string', 'a string in the list');
          if (s.type === 'string') values.push({ kind: 'string', value: s.value, pos: s.pos });
          const sep = next();
          if (sep.type === ']') break;
          if (sep.type !== ',')
            throw new SieveSyntaxError(`expected "," or "]" but found ${describe(sep)}`, sep.pos);
        }
        args.push({ kind: 'stringlist', values, pos: t.pos });
      } else break;
    }
    const t = peek();
    if (t.type === 'identifier') return { args, tests: [test(deeper(depth + 1, t.pos))], testList: false };
    if (t.type === '(') {
      next();
      const tests: TestNode[] = [];
      for (;;) {
        const inner = peek();
        tests.push(test(deeper(depth + 1, inner.pos)));
        const sep = next();
        if (sep.type === ')') break;
        if (sep.type !== ',')
          throw new SieveSyntaxError(`expected "," or ")" but found ${describe(sep)}`, sep.pos);
      }
      return { args, tests, testList: true };
    }
    return { args, tests: [], testList: false };
  }

  function test(depth: number): TestNode {
    const pos = peek().pos;
    const name = expectWord('a test');
    const { args, tests, testList } = argumentsOf(depth);
    return { name, args, tests, testList, pos };
  }

  return commands(0, false);
}
