import { describe, expect, it } from 'vitest';
import { compile } from './compile.js';
import { SieveSyntaxError } from './errors.js';
import { parse } from './parser.js';

function syntaxError(source: string): SieveSyntaxError {
  try {
    compile(source);
  } catch (err) {
    if (err instanceof SieveSyntaxError) return err;
    throw err;
  }
  throw new Error('the script compiled');
}

describe('sieve parser', () => {
  it('reads commands, tests, string lists, numbers with quantifiers and blocks', () => {
    const tree = parse('if anyof (size :over 1K, header :is ["a","b"] "c") { keep; } else { discard; }');
    expect(tree.map((c) => c.name)).toEqual(['if', 'else']);
    const anyof = tree[0]!.tests[0]!;
    expect(anyof.name).toBe('anyof');
    expect(anyof.tests[0]!.args).toMatchObject([
      { kind: 'tag', name: 'over' },
      { kind: 'number', value: 1024 },
    ]);
    expect(anyof.tests[1]!.args[1]).toMatchObject({
      kind: 'stringlist',
      values: [{ value: 'a' }, { value: 'b' }],
    });
  });

  it('reads multi-line strings with dot-stuffing and quoted strings with escapes', () => {
    const tree = parse('vacation text:\r\nline one\r\n..dot\r\n.\r\n;\nfileinto "a\\"b\\\\c\\d";');
    expect(tree[0]!.args[0]).toMatchObject({ value: 'line one\r\n.dot\r\n' });
    expect(tree[1]!.args[0]).toMatchObject({ value: 'a"b\\cd' });
  });

  it('skips hash and bracketed comments and counts their lines', () => {
    const err = syntaxError('# one\n/* two\nthree */\nkeep keep;');
    expect(err.position).toEqual({ line: 4, column: 6 });
  });

  it('names the line and column of an unterminated string', () => {
    const err = syntaxError('keep;\n  fileinto "abc');
    expect(err.position).toEqual({ line: 2, column: 12 });
    expect(err.message).toMatch(/^line 2, column 12: unterminated string/);
  });

  it('refuses a missing semicolon with the place of what follows', () => {
    const err = syntaxError('keep\ndiscard;');
    expect(err.position).toEqual({ line: 2, column: 1 });
  });

  it('refuses nesting deeper than the limit', () => {
    const deep = 'if true {'.repeat(20) + '}'.repeat(20);
    expect(() => compile(deep)).toThrow(/nesting is deeper than the limit of 15/);
    expect(() => compile('if true {'.repeat(5) + '}'.repeat(5))).not.toThrow();
  });

  it('refuses a 10 MB script at once, and deeply nested tests as well as blocks', () => {
    const started = performance.now();
    expect(() => compile('keep;\n'.repeat(2_000_000))).toThrow(/larger than the limit of 1048576 bytes/);
    expect(() => compile(`if ${'not '.repeat(5000)}true { keep; }`)).toThrow(
      /nesting is deeper than the limit/,
    );
    expect(() => compile(`if ${'anyof('.repeat(100)}true${')'.repeat(100)} { keep; }`)).toThrow(/nesting/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a script larger than the size limit', () => {
    expect(() => compile('#'.repeat(100), { maxScriptSize: 50 })).toThrow(
      /larger than the limit of 50 bytes/,
    );
  });
});

describe('sieve compile checks', () => {
  it('an extension command without its require is a compile error at its line', () => {
    const err = syntaxError('keep;\nfileinto "x";');
    expect(err.position.line).toBe(2);
    expect(err.reason).toMatch(/require "fileinto"/);
  });

  it('an unknown extension in require is refused', () => {
    expect(syntaxError('require "nonsense";').reason).toMatch(/unsupported extension "nonsense"/);
  });

  it('require after another command is refused', () => {
    expect(syntaxError('keep;\nrequire "fileinto";').reason).toMatch(/require must come before/);
  });

  it('elsif without if, a test used as a command and an unknown tag are refused', () => {
    expect(syntaxError('elsif true { keep; }').reason).toMatch(/must follow an if/);
    expect(syntaxError('header "a" "b";').reason).toMatch(/is a test, not a command/);
    expect(syntaxError('if header :nope "a" "b" { keep; }').reason).toMatch(/has no tag :nope/);
  });

  it('wrong argument counts and types are refused', () => {
    expect(syntaxError('require "fileinto";\nfileinto;').reason).toMatch(/needs 1 positional argument/);
    expect(syntaxError('if size :over "x" { keep; }').reason).toMatch(/must be a number/);
    expect(syntaxError('if size 10 { keep; }').reason).toMatch(/needs :over or :under/);
    expect(syntaxError('if header :is :contains "a" "b" { keep; }').reason).toMatch(
      /cannot be used together/,
    );
  });

  it('i;ascii-numeric needs its require and does not go with :contains', () => {
    expect(syntaxError('if header :comparator "i;ascii-numeric" "a" "1" {}').reason).toMatch(
      /comparator-i;ascii-numeric/,
    );
    expect(
      syntaxError(
        'require "comparator-i;ascii-numeric";\nif header :contains :comparator "i;ascii-numeric" "a" "1" {}',
      ).reason,
    ).toMatch(/cannot be used with :contains/);
  });

  it('an invalid literal regex and an invalid redirect address are compile errors', () => {
    expect(syntaxError('require "regex";\nif header :regex "a" "(a" {}').position.line).toBe(2);
    expect(syntaxError('redirect "not an address";').reason).toMatch(/not a valid address/);
  });

  it('an unknown relational operator is refused; an unknown date part is not (the test is false, as in Pigeonhole)', () => {
    expect(syntaxError('require "relational";\nif header :value "xx" "a" "1" {}').reason).toMatch(
      /operator "xx"/,
    );
    expect(() => compile('require "date";\nif currentdate "fortnight" "1" {}')).not.toThrow();
  });
});
