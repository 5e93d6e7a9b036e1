export { compile, supportedExtensions, type CompileOptions, type Extension, type Script } from './compile.js';
export { SieveRuntimeError, SieveSyntaxError, type Position } from './errors.js';
export { formatResult, normaliseFlags } from './format.js';
export type { BodyPart, HeaderField, SieveHost } from './host.js';
export { run, tookTooLong, type SieveAction, type SieveResult } from './interpret.js';
export { defaultLimits, type SieveLimits } from './limits.js';
export { parse, type CommandNode, type TestNode } from './parser.js';
export { decodeMimeWords } from './mime.js';
export {
  builderActionTypes,
  builderFields,
  builderFromSieve,
  builderRequires,
  builderSizeOps,
  builderTextOps,
  orderedActions,
  sieveFromBuilder,
  sizeBytes,
  validateBuilderRule,
  VACATION_MAX_DAYS,
  VACATION_MIN_DAYS,
  type BuilderAction,
  type BuilderActionType,
  type BuilderCondition,
  type BuilderField,
  type BuilderOp,
  type BuilderProblem,
  type BuilderRule,
} from './builder.js';

import { compile, type CompileOptions } from './compile.js';
import { SieveSyntaxError } from './errors.js';
import type { SieveHost } from './host.js';
import { run, type SieveResult } from './interpret.js';
import type { SieveLimits } from './limits.js';

export type SieveOutcome =
  SieveResult | { status: 'compile-error'; error: { message: string; line: number; column: number } };

/** Compiles and runs a script in one go; a script that does not compile gives status "compile-error". */
export function evaluate(
  source: string,
  host: SieveHost,
  limits: Partial<SieveLimits> = {},
  options: CompileOptions = {},
): SieveOutcome {
  let script;
  try {
    script = compile(source, limits, options);
  } catch (err) {
    if (!(err instanceof SieveSyntaxError)) throw err;
    return {
      status: 'compile-error',
      error: {
        message: `line ${err.position.line}: ${err.reason}`,
        line: err.position.line,
        column: err.position.column,
      },
    };
  }
  return run(script, host, limits);
}
export {
  disabledText,
  hasRequire,
  joinRules,
  requiredExtensions,
  ruleAtLine,
  splitRules,
  wholeScriptRuleName,
  type RuleBlock,
  type RulesFile,
} from './rules-file.js';
