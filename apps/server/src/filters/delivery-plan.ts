import { ruleAtLine, type SieveAction } from '@mailroom/sieve';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { ensureFolderPath, listFolders, listLabels, type FolderRow } from '../mailbox/index.js';
import { findFolder, folderPathOf } from './mailboxes.js';
import { findScriptIfChanged } from './filters.repository.js';
import { runOnMessage, type FilterMessage } from './message-host.js';

/** Where one copy of a delivered message goes, and what it carries. */
export interface DeliveryCopy {
  folder: number | 'inbox';
  flags: { seen: boolean; flagged: boolean; answered: boolean; draft: boolean };
  labels: number[];
}

/** What a script asks to be sent (through the outbox): never done to the stored copies. */
export type OutgoingAction = Extract<SieveAction, { type: 'redirect' | 'reject' | 'ereject' | 'vacation' }>;

export interface FilterError {
  filter: string | null;
  message: string;
}

/** What delivery does for one account: the copies to store (none: discarded), what to send, what went wrong. */
export interface DeliveryPlan {
  copies: DeliveryCopy[];
  outgoing: OutgoingAction[];
  errors: FilterError[];
  /** A `fileinto :create` made a folder: the folder list changed. */
  foldersCreated: boolean;
  /** The script judged the message spam: it filed a copy into Junk or flagged it `$Junk` (see MessageVerdict). */
  junk: boolean;
}

export interface DeliveryEnvelope {
  /** MAIL FROM ("" for the null sender). */
  from: string;
  /** The RCPT TO of this account. */
  to: string;
  /** The spam scorer's score and threshold, for spamtest (absent: not tested). */
  spam?: { score: number; required: number };
}

const noFlags = { seen: false, flagged: false, answered: false, draft: false };

/** The plan without a filter, and after any failure of one: the Inbox, as received. */
export const inboxOnly = (errors: FilterError[] = []): DeliveryPlan => ({
  copies: [{ folder: 'inbox', flags: { ...noFlags }, labels: [] }],
  outgoing: [],
  errors,
  foldersCreated: false,
  junk: false,
});

/**
 * Scripts by account, valid for their version: a delivery reads the version with the script (one indexed row) and
 * reads the text only when it changed. The Sieve workers compile it (and keep it compiled, by text): compiling a
 * script's regexes takes RE2JS up to ~100 ms each, never on the event loop. Bounded: the oldest entry goes first.
 */
type CompiledEntry = { version: number; source: string };
/** By database (tests open many, whose accounts share ids and versions), then by account. */
const compiledByDb = new WeakMap<Db, Map<number, CompiledEntry>>();
const cacheLimit = 10_000;

/** The account's compiled script of its current version (its text read only when the version changed), or undefined. */
async function currentScript(db: Db, accountId: number) {
  let compiled = compiledByDb.get(db);
  if (!compiled) compiledByDb.set(db, (compiled = new Map()));
  const hit = compiled.get(accountId);
  const row = await findScriptIfChanged(db, accountId, hit?.version);
  if (!row) return undefined;
  if (hit && row.script === null) return hit;
  const source = row.script ?? '';
  const entry = { version: row.version, source };
  compiled.delete(accountId);
  compiled.set(accountId, entry);
  if (compiled.size > cacheLimit) compiled.delete(compiled.keys().next().value!);
  return entry;
}

/**
 * Runs the account's active script on a message being delivered and turns its actions into copies to store:
 * keep and the implicit keep → the Inbox, fileinto → the named folder (created when `:create`; a missing folder
 * keeps the message in the Inbox and records why), flags onto the copy (a keyword naming one of the account's
 * labels, in any case, attaches that label), discard → no copy. Null when the account has no script (deliver as
 * always). Never throws for the script or the message: a runtime error, or any failure of ours, keeps the message
 * in the Inbox as if there were no filter and says why in `errors`.
 */
export async function planDelivery(
  db: Db,
  accountId: number,
  /** The message's bytes, or a FilterMessage: its head, its body read only when a body test asks. */
  readRaw: () => Promise<Buffer | FilterMessage>,
  envelope: DeliveryEnvelope,
): Promise<DeliveryPlan | null> {
  const stored = await currentScript(db, accountId);
  // A saved script always compiles; one that does not (saved before the interpreter changed), or has no
  // commands, runs as no filter (runOnMessage answers null).
  if (!stored?.source.trim()) return null;
  try {
    // The folder list is read once, and only when a fileinto or mailboxexists needs it.
    let folderList: Promise<FolderRow[]> | undefined;
    const folders = () => (folderList ??= listFolders(db, accountId));
    const result = await runOnMessage({ source: stored.source }, await readRaw(), {
      envelopeFrom: envelope.from,
      envelopeTo: envelope.to,
      ...(envelope.spam ? { spam: envelope.spam } : {}),
      mailboxes: async () => (await folders()).map((f) => f.name),
    });
    if (!result) return null;
    if (result.status === 'failed') {
      const line = result.error?.line ?? 0;
      return inboxOnly([
        { filter: ruleAtLine(stored.source, line), message: result.error?.message ?? 'the filter failed' },
      ]);
    }
    return await applyActions(db, accountId, folders, result.actions, result.implicitKeep);
  } catch (err) {
    return inboxOnly([{ filter: null, message: `the filters could not run: ${(err as Error).message}` }]);
  }
}

async function applyActions(
  db: Db,
  accountId: number,
  folderList: () => Promise<FolderRow[]>,
  actions: SieveAction[],
  implicitKeep: { flags: string[] } | null,
): Promise<DeliveryPlan> {
  const plan: DeliveryPlan = { copies: [], outgoing: [], errors: [], foldersCreated: false, junk: false };
  const marksOf = marksReader(db, accountId);
  // Only a fileinto needs the folders (keep is the Inbox by its system name).
  const folders = actions.some((a) => a.type === 'fileinto') ? await folderList() : [];
  const inboxId = folders.find((f) => f.system === 'inbox')?.id;
  const junkId = folders.find((f) => f.system === 'junk')?.id;
  const add = async (folder: number | 'inbox', flags: string[]) => {
    plan.junk ||= folder === junkId || flags.some((f) => f.toLowerCase() === '$junk');
    const copy: DeliveryCopy = { folder: folder === inboxId ? 'inbox' : folder, ...(await marksOf(flags)) };
    // The same folder twice (keep and fileinto "INBOX", say) is one copy with the flags of both.
    const same = plan.copies.find((c) => c.folder === copy.folder);
    if (!same) return void plan.copies.push(copy);
    for (const k of Object.keys(same.flags) as (keyof DeliveryCopy['flags'])[])
      same.flags[k] ||= copy.flags[k];
    same.labels = [...new Set([...same.labels, ...copy.labels])];
  };
  const created = new Map<string, number>();
  for (const action of actions) {
    switch (action.type) {
      case 'keep':
        await add('inbox', action.flags);
        break;
      case 'fileinto': {
        const path = folderPathOf(action.mailbox);
        const found = findFolder(folders, action.mailbox)?.id ?? created.get(path.toLowerCase());
        if (found !== undefined) {
          await add(found, action.flags);
          break;
        }
        if (!action.create) {
          plan.errors.push({
            filter: null,
            message: `fileinto: the folder "${action.mailbox}" does not exist`,
          });
          await add('inbox', action.flags);
          break;
        }
        try {
          const made = await ensureFolderPath(db, accountId, path);
          created.set(path.toLowerCase(), made.id);
          plan.foldersCreated ||= made.created;
          await add(made.id, action.flags);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          plan.errors.push({
            filter: null,
            message: `fileinto: "${action.mailbox}" cannot be a folder name`,
          });
          await add('inbox', action.flags);
        }
        break;
      }
      case 'discard':
        break;
      default:
        plan.outgoing.push(action);
    }
  }
  if (implicitKeep) await add('inbox', implicitKeep.flags);
  return plan;
}

/**
 * Reads Sieve flags into a copy's flags and labels: \Seen, \Flagged, \Answered, \Draft set those flags (\Deleted
 * is not kept: nothing is expunged here), and a keyword naming one of the account's labels, in any case,
 * attaches that label ("add label X" is `addflag "X"`). The labels are read once, when a keyword needs them.
 */
export function marksReader(db: Db, accountId: number) {
  let labels: Promise<Map<string, number>> | undefined;
  return async (flags: readonly string[]): Promise<Omit<DeliveryCopy, 'folder'>> => {
    const marks: Omit<DeliveryCopy, 'folder'> = { flags: { ...noFlags }, labels: [] };
    for (const flag of flags) {
      const lower = flag.toLowerCase();
      if (lower === '\\seen') marks.flags.seen = true;
      else if (lower === '\\flagged') marks.flags.flagged = true;
      else if (lower === '\\answered') marks.flags.answered = true;
      else if (lower === '\\draft') marks.flags.draft = true;
      else if (!lower.startsWith('\\')) {
        labels ??= listLabels(db, accountId).then(
          (rows) => new Map(rows.map((l) => [l.name.toLowerCase(), l.id])),
        );
        const id = (await labels).get(lower);
        if (id !== undefined && !marks.labels.includes(id)) marks.labels.push(id);
      }
    }
    return marks;
  };
}
