import {
  compile,
  hasRequire,
  joinRules,
  splitRules,
  type CompileOptions,
  type Script,
  type SieveAction,
} from '@mailroom/sieve';
import type {
  FilterAction,
  FiltersResponse,
  FilterTestResponse,
  FilterValidateResponse,
  SieveProblem,
} from '@mailroom/protocol';
import type { z } from 'zod';
import type { filtersSaveSchema, filterTestSchema } from '@mailroom/protocol';
import type { Principal } from '../accounts/index.js';
import { findAccountById } from '../accounts/index.js';
import type { BlobStore } from '../core/blobs/index.js';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { scopeOf } from '../addresses/index.js';
import { findComposeSource, listFolders } from '../mailbox/index.js';
import type { FilterError } from './delivery-plan.js';
import { findScript, insertError, listErrors, writeScript } from './filters.repository.js';
import { runOnMessage } from './message-host.js';
import { compileInWorker, type SieveCompileProblem } from './sieve-pool.js';

export type FiltersState = FiltersResponse['sieve_filter'];

/** The account's filters: the rules of its script in order, the script itself, its version and latest errors. */
export async function getFilters(db: Db, accountId: number): Promise<FiltersState> {
  const [stored, errors] = await Promise.all([findScript(db, accountId), listErrors(db, accountId)]);
  const script = stored?.script ?? '';
  return {
    filters: splitRules(script).rules.map((r, i) => ({
      id: i + 1,
      name: r.name,
      rules: r.text,
      enabled: r.enabled,
    })),
    script,
    version: stored?.version ?? 0,
    errors: errors.map((e) => ({ at: e.at.toISOString(), filter: e.filter, message: e.message })),
  };
}

/** A script that does not compile: sieve_syntax_error, or the limit of ours it passes (a regex too long). */
const syntaxError = (problem: SieveCompileProblem, where?: string) =>
  new DomainError(
    problem.limit === 'regex_too_long' ? 'sieve_regex_too_long' : 'sieve_syntax_error',
    where ? `${where}: ${problem.message}` : problem.message,
  );

/**
 * Compiles a text (in a Sieve worker: never on the event loop) or throws sieve_syntax_error (sieve_regex_too_long)
 * with where the first problem is.
 */
export async function compileOrRefuse(text: string, options: CompileOptions, where?: string): Promise<void> {
  const problem = await compileInWorker(text, options);
  if (problem) throw syntaxError(problem, where);
}

type ScriptCommand = Script['commands'][number];

/** A script's redirect and vacation commands, each as its arguments without its place: what sends the mail on. */
function forwardingOf(script: Script): string[] {
  const found: string[] = [];
  const walk = (commands: ScriptCommand[]) => {
    for (const c of commands) {
      if (c.type === 'if') for (const b of c.branches) walk(b.block);
      else if (c.type === 'redirect' || c.type === 'vacation')
        found.push(JSON.stringify({ ...c, pos: null }));
    }
  };
  walk(script.commands);
  return found;
}

/**
 * Only the owner sets up what sends their mail on (issue 28): a session opened by impersonation may save a script
 * whose redirects and vacation replies are the owner's saved ones (or fewer), never a new or changed one
 * (forwarding_owner_only) — so nothing a grantee set keeps forwarding the owner's mail after the grant is revoked.
 */
function checkForwardingUnchanged(saved: string, next: Script): void {
  let before: string[] = [];
  try {
    before = forwardingOf(compile(saved));
  } catch {
    // A saved script that no longer compiles forwards nothing.
  }
  for (const command of forwardingOf(next)) {
    const i = before.indexOf(command);
    if (i === -1) throw new DomainError('forwarding_owner_only');
    before.splice(i, 1);
  }
}

/** Who saves: the owner, or someone acting in the mailbox (impersonation: `actorAccountId`). */
export interface FiltersEditor {
  accountId: number;
  actorAccountId?: number | null;
}

/**
 * Saves the whole list of filters (its new order; the preamble of the stored script stays) or a whole script from
 * the raw editor. Every filter needs a name, every rule block must compile (as if it required what it uses) and
 * so must the whole script; with `version`, only over that version (filters_changed when another save came first).
 * An impersonating editor may not add or change a redirect or a vacation reply (checkForwardingUnchanged).
 */
export async function saveFilters(
  db: Db,
  editor: FiltersEditor,
  body: z.output<typeof filtersSaveSchema>,
): Promise<FiltersState> {
  // Compiled before the transaction (in a worker; on embedded PGlite a transaction holds the only connection).
  let rules: { name: string; enabled: boolean; text: string }[] | null = null;
  if (body.filters) {
    rules = body.filters.map((f) => ({
      name: f.name.replace(/[\r\n]+/g, ' ').trim(),
      enabled: f.enabled,
      text: f.rules.replace(/\r\n/g, '\n').replace(/\n+$/, ''),
    }));
    for (const rule of rules) {
      if (!rule.name) throw new DomainError('filter_name_is_empty');
      await compileOrRefuse(rule.text, { inferRequire: true }, `"${rule.name}"`);
    }
  } else if (splitRules(body.script!).rules.some((r) => !r.name.trim()))
    throw new DomainError('filter_name_is_empty');
  const { accountId } = editor;
  const preamble = rules ? splitRules((await findScript(db, accountId))?.script ?? '').preamble : '';
  const script = rules ? joinRules({ preamble, rules }) : body.script!;
  await compileOrRefuse(script, {});
  if (editor.actorAccountId)
    checkForwardingUnchanged((await findScript(db, accountId))?.script ?? '', compile(script));
  await transact(db, async (trx) => {
    // The preamble was read outside: a save in between shows as another version (filters_changed) when the caller
    // gave its version.
    const version = await writeScript(trx, accountId, script, body.version);
    if (version === null) throw new DomainError('filters_changed');
  });
  return getFilters(db, accountId);
}

/** How a text from an editor is compiled: a whole script with its own require as written, a rule as a rule. */
export const compileOptionsFor = (text: string): CompileOptions =>
  hasRequire(text) ? {} : { inferRequire: true };

const problemOf = (problem: SieveCompileProblem): SieveProblem => ({
  line: problem.line,
  column: problem.column,
  message: problem.reason,
});

/** The problems of a whole script or one filter's rules (the first one: compiling stops there). */
export async function validateFilter(text: string): Promise<FilterValidateResponse> {
  const problem = await compileInWorker(text, compileOptionsFor(text));
  return { errors: problem ? [problemOf(problem)] : [] };
}

function toFilterAction(action: SieveAction): FilterAction {
  if (action.type === 'vacation')
    return { type: 'vacation', subject: action.subject, seconds: action.seconds, reason: action.reason };
  return action;
}

function returnPath(raw: Buffer): string | null {
  const head = raw.subarray(0, 64 * 1024).toString('utf8');
  return /^return-path:[ \t]*<([^>]*)>/im.exec(head)?.[1] ?? null;
}

/**
 * Runs rules (one filter's or a whole script) against one of the caller's messages and says what they would do;
 * nothing changes. The envelope is the message's Return-Path (else its From) to the account's address; the
 * folders are the account's.
 */
export async function testFilter(
  db: Db,
  blobs: BlobStore,
  principal: Principal,
  body: z.output<typeof filterTestSchema>,
): Promise<FilterTestResponse> {
  const source = await findComposeSource(
    db,
    principal.accountId,
    await scopeOf(db, principal),
    body.folder_id,
    body.uid,
  );
  if (!source) throw new DomainError('entity_not_found');
  const [raw, folders, account] = await Promise.all([
    blobs.get(source.blobHash),
    listFolders(db, principal.accountId),
    findAccountById(db, principal.accountId),
  ]);
  const from =
    returnPath(raw) ?? /^from:[^\n<]*<?([^\s<>]+@[^\s<>]+)>?/im.exec(raw.toString('utf8', 0, 65_536))?.[1];
  const compileOptions = compileOptionsFor(body.script);
  const problem = await compileInWorker(body.script, compileOptions);
  if (problem)
    return { status: 'compile-error', actions: [], implicit_keep: null, error: problemOf(problem) };
  // In a Sieve worker, within SIEVE_TIME_LIMIT_MS, as at delivery; a script without commands keeps the message.
  const result = (await runOnMessage({ source: body.script, compileOptions }, raw, {
    envelopeFrom: from ?? '',
    envelopeTo: account?.email ?? '',
    mailboxes: async () => folders.map((f) => f.name),
  })) ?? { status: 'success' as const, actions: [], implicitKeep: { flags: [] } };
  return {
    status: result.status,
    actions: result.actions.map(toFilterAction),
    implicit_keep: result.implicitKeep,
    error: result.error ? { ...result.error, message: result.error.message } : null,
  };
}

/** Records what went wrong with a script at delivery, where the filters screen shows it. */
export async function recordFilterErrors(db: Db, accountId: number, errors: FilterError[]): Promise<void> {
  if (!errors.length) return;
  await transact(db, async (trx) => {
    for (const e of errors) await insertError(trx, accountId, e.filter, e.message);
  });
}
