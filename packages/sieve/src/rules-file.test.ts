import { describe, expect, it } from 'vitest';
import { compile } from './compile.js';
import {
  hasRequire,
  joinRules,
  requiredExtensions,
  ruleAtLine,
  splitRules,
  type RulesFile,
} from './rules-file.js';

const invoices = `if address :is "from" "billing@example.com"
{
\tfileinto "Invoices";
\taddflag "\\\\Seen";
}`;
const spam = `if header :contains "subject" "[SPAM]"
{
\tdiscard;
\tstop;
}`;
const vacation = `vacation :days 3 :subject "Away" "I am away.";`;
const multiLineTest = `if anyof (header :contains "subject" "a",
          header :contains "subject" "b")
{
\tfileinto :create "Letters";
}`;
const withElse = `if size :over 1M
{
\tfileinto "Big";
}
else
{
\tkeep;
}`;

const file: RulesFile = {
  preamble: '# Filters of alice\n\n',
  rules: [
    { name: 'Invoices', enabled: true, text: invoices },
    { name: 'Spam', enabled: false, text: spam },
    { name: 'Away', enabled: false, text: vacation },
    { name: 'Letters', enabled: false, text: multiLineTest },
    { name: 'Big ones', enabled: false, text: withElse },
    { name: 'Regex [x]', enabled: true, text: 'if header :regex "subject" "^re: ${1}" { keep; }' },
  ],
};

describe('the filters script in Roundcube form', () => {
  it('writes the require line from what the rules use, a marker before each rule, and the preamble kept', () => {
    const script = joinRules(file);
    expect(script.split('\n')[0]).toBe(
      'require ["fileinto","mailbox","imap4flags","variables","regex","vacation"];',
    );
    expect(script).toContain('\n# Filters of alice\n\n# rule:[Invoices]\nif address');
    // The whole script compiles, and the disabled rules do nothing.
    expect(() => compile(script)).not.toThrow();
  });

  it('writes a disabled one-line-test rule as Roundcube does, and comments out every other disabled rule', () => {
    const script = joinRules(file);
    expect(script).toContain('# rule:[Spam]\nif false # header :contains "subject" "[SPAM]"\n{\n\tdiscard;');
    expect(script).toContain('# rule:[Away]\n#vacation :days 3');
    expect(script).toContain(
      '# rule:[Letters]\n#if anyof (header :contains "subject" "a",\n#          header',
    );
    // An if with an else would still run its else after `if false`: commented out instead.
    expect(script).toContain('# rule:[Big ones]\n#if size :over 1M\n#{\n#\tfileinto "Big";\n#}\n#else');
  });

  it('reads back exactly what it wrote, and writes back exactly what it read', () => {
    const script = joinRules(file);
    expect(splitRules(script)).toEqual(file);
    expect(joinRules(splitRules(script))).toBe(script);
  });

  it('keeps a script without rules as its preamble', () => {
    const only = { preamble: '# nothing yet\n', rules: [] };
    expect(joinRules(only)).toBe('# nothing yet\n');
    expect(splitRules('# nothing yet\n')).toEqual(only);
    expect(splitRules('')).toEqual({ preamble: '', rules: [] });
  });

  it('makes a hand-written script without markers one filter, named by its first comment', () => {
    const hand =
      'require ["fileinto"];\n# Sort the lists\nif header :contains "list-id" "dev" { fileinto "Dev"; }\n';
    expect(splitRules(hand)).toEqual({
      preamble: '',
      rules: [
        {
          name: 'Sort the lists',
          enabled: true,
          text: '# Sort the lists\nif header :contains "list-id" "dev" { fileinto "Dev"; }',
        },
      ],
    });
    expect(splitRules('keep;\n').rules).toEqual([{ name: 'Script', enabled: true, text: 'keep;' }]);
  });

  it('keeps a rule that does not compile as its text, enabled', () => {
    const broken = '# rule:[Broken]\nif header :is "a" {\n';
    expect(splitRules(broken).rules).toEqual([
      { name: 'Broken', enabled: true, text: 'if header :is "a" {' },
    ]);
  });

  it('reads comments and requires before the first rule into the preamble, the requires computed again', () => {
    const script =
      'require "fileinto";\r\nrequire ["imap4flags"];\n# mine\n# rule:[a]\nif true { fileinto "x"; }\n';
    const split = splitRules(script);
    expect(split.preamble).toBe('# mine\n');
    expect(joinRules(split)).toBe('require ["fileinto"];\n# mine\n# rule:[a]\nif true { fileinto "x"; }\n');
  });

  it('computes encoded-character and relational needs from how strings and tags are used', () => {
    expect(
      requiredExtensions(['if header :value "gt" :comparator "i;ascii-numeric" "x-n" "3" { keep; }']),
    ).toEqual(['relational', 'comparator-i;ascii-numeric']);
    expect(requiredExtensions(['if header :is "subject" "${hex:41}" { keep; }'])).toEqual([
      'encoded-character',
    ]);
    expect(requiredExtensions(['if header :is "subject" "plain" { keep; }', 'not sieve'])).toEqual([]);
  });

  it('names the rule a line of the script is in, and tells a script with its own require', () => {
    const script = joinRules(file);
    const line = script.split('\n').indexOf('\tdiscard;') + 1;
    expect(ruleAtLine(script, line)).toBe('Spam');
    expect(ruleAtLine(script, 1)).toBeNull();
    expect(hasRequire(script)).toBe(true);
    expect(hasRequire('# c\nkeep;')).toBe(false);
  });

  it('reads a script written with CRLF line ends (as ManageSieve clients write them)', () => {
    const crlf =
      'require ["fileinto"];\r\n# rule:[A]\r\nif true {\r\n  fileinto "x";\r\n}\r\n# rule:[B]\r\nkeep;\r\n';
    const split = splitRules(crlf);
    expect(split.rules.map((r) => r.name)).toEqual(['A', 'B']);
    expect(split.rules[0]!.text).toBe('if true {\r\n  fileinto "x";\r\n}\r');
  });
});
