import {
  CONTACT_IMPORT_SKIPPED_LISTED,
  type ContactImportResponse,
  type contactImportQuerySchema,
} from '@mailroom/protocol';
import type { z } from 'zod';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import type { BlobStore } from '../core/blobs/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog as BasePublishLog } from '../core/events/index.js';
import {
  enqueueJob,
  runDueJob,
  startQueueWorker,
  timeSlicer,
  wakeJobs,
  type JobHandler,
} from '../core/jobs/index.js';
import type { ContactLimits } from './contacts.service.js';
import { contactKeys, findContacts, lockAddressBook, saveContact } from './contacts.repository.js';
import { addMembers, countGroups, findGroup, findGroupByName, insertGroup } from './groups.repository.js';
import { requireGroup } from './groups.service.js';
import type { ImportEntry, ParsedFile } from './import-entry.js';
import {
  startImportRun,
  findImport,
  insertImport,
  progressOf,
  saveProgress,
  toContactImport,
  type ContactImportView,
  type ImportProgress,
} from './imports.repository.js';
import { clip, contactsFileFormat, merged, nameKey, parseContactsFile, valuesOf } from './contacts-file.js';

type PublishLog = BasePublishLog & {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/** The job queue's kind for an import (key: the import's id): the whole import is one run, under a renewed lease. */
export const CONTACT_IMPORT_JOB = 'contact-import';

/**
 * POST contacts/import: checks the file is one we read (and the group is the caller's), stores it and queues the
 * import, answering at once; the contact-imports job does it (runContactImport). One unfinished import per account
 * (contact_import_active).
 */
export async function startImport(
  db: Db,
  blobs: BlobStore,
  accountId: number,
  file: Buffer,
  query: z.output<typeof contactImportQuerySchema>,
): Promise<ContactImportResponse> {
  if (query.group !== undefined) await requireGroup(db, accountId, query.group);
  const format = await contactsFileFormat(file, query.format);
  const { hash } = await blobs.put(file);
  try {
    const row = await transact(db, async (trx) => {
      const inserted = await insertImport(trx, {
        account_id: accountId,
        format,
        group_id: query.group ?? null,
        blob_hash: hash,
      });
      await enqueueJob(trx, { kind: CONTACT_IMPORT_JOB, key: String(inserted.id) });
      return inserted;
    });
    wakeJobs(CONTACT_IMPORT_JOB);
    return toContactImport(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('contact_import_active');
    throw err;
  }
}

export async function getImport(db: Db, accountId: number, id: number): Promise<ContactImportResponse> {
  const row = await findImport(db, accountId, id);
  if (!row) throw new DomainError('entity_not_found');
  return toContactImport(row);
}

export interface ContactImportDeps {
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  log: PublishLog;
  limits: ContactLimits;
  /** How long one batch (one transaction) may take before it commits and lets other work run, in ms. */
  batchMs?: number;
}

/** An import's lease: renewed while it runs; one whose process stopped is taken over when it runs out. */
const IMPORT_LEASE_MS = 120_000;
/** Entries one batch takes at most, however fast they go. */
const BATCH_MAX = 500;

/**
 * The import that waited longest, done through; false when there was none. The file is read a slice at a time
 * (parseContactsFile, pausing between slices), then its entries are written in batches: each batch is one short
 * transaction (at most `batchMs`, BATCH_MAX entries) that locks the address book and stores how far the import got,
 * and other work runs between batches, so neither a 5 MB file nor 157,000 rows hold the server (issue 28). Each
 * entry is matched with a contact already there (by any of its addresses, else by name and surname in any case when
 * the entry or the contact has no address) and completes it, or is added while the address book has room
 * (MAX_CONTACTS; the rest are counted in over_limit); its groups (CATEGORIES, a group card naming it, a CSV's
 * groups, and the import's group) are found by name or made while there is room (MAX_CONTACT_GROUPS). So the same
 * file imported twice adds nothing the second time, and an import taken over after a stop resumes where it was.
 */
export function contactImportHandler(deps: ContactImportDeps): JobHandler {
  return async (job) => {
    await runImport(deps, Number(job.key));
  };
}

/** Claims the import job due longest and does the import through; false when none was due (tests). */
export async function runContactImport(deps: ContactImportDeps): Promise<boolean> {
  return runDueJob({
    db: deps.db,
    kind: CONTACT_IMPORT_JOB,
    handler: contactImportHandler(deps),
    log: deps.log,
    leaseMs: IMPORT_LEASE_MS,
  });
}

async function runImport(deps: ContactImportDeps, id: number): Promise<void> {
  const { db } = deps;
  const row = await startImportRun(db, id);
  if (!row) return;
  const accountId = row.account_id;
  const batchMs = deps.batchMs ?? 20;
  let lastPublished = 0;
  const publish = async (view: ContactImportView, force = false) => {
    if (!force && Date.now() - lastPublished < 250) return;
    lastPublished = Date.now();
    await emit(deps.db, deps, accountId, [{ event: 'contactImport', import: toContactImport(view) }]);
  };
  const progress: ImportProgress = { ...progressOf(row), state: 'running', error: null };
  const fail = async (err: unknown) => {
    progress.state = 'failed';
    progress.error = (err as Error).message;
    await publish(await saveProgress(db, row.id, progress), true);
  };

  let parsed: ParsedFile;
  try {
    const file = row.blob_hash ? await deps.blobs.get(row.blob_hash).catch(() => null) : null;
    if (!file) throw new DomainError('contacts_file_unreadable');
    parsed = await parseContactsFile(
      file,
      row.format === 'vcard' ? 'vcard' : 'csv',
      timeSlicer(batchMs).pause,
    );
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    await fail(err);
    return;
  }
  if (progress.done === 0) {
    progress.total = parsed.entries.length;
    progress.skipped = parsed.skipped.slice(0, CONTACT_IMPORT_SKIPPED_LISTED);
    progress.skipped_count = parsed.skipped.length;
  }
  const skip = (entry: number, reason: string) => {
    if (progress.skipped.length < CONTACT_IMPORT_SKIPPED_LISTED) progress.skipped.push({ entry, reason });
    progress.skipped_count++;
  };

  // Group cards name their members by UID or address; each such entry joins the card's group.
  const groupsOfEntry = new Map<ImportEntry, string[]>();
  const byUid = new Map<string, ImportEntry[]>();
  const byEntryEmail = new Map<string, ImportEntry[]>();
  const slicer = timeSlicer(batchMs);
  for (const e of parsed.entries) {
    await slicer.pause();
    if (e.uid) byUid.set(e.uid, [...(byUid.get(e.uid) ?? []), e]);
    if (parsed.groupCards.length)
      for (const m of new Set(e.emails.map((x) => x.trim().toLowerCase())))
        byEntryEmail.set(m, [...(byEntryEmail.get(m) ?? []), e]);
  }
  const unresolvedEmails: { group: string; email: string }[] = [];
  for (const card of parsed.groupCards) {
    for (const ref of card.members) {
      const found = ref.startsWith('uid:')
        ? (byUid.get(ref.slice(4)) ?? [])
        : (byEntryEmail.get(ref.slice(6)) ?? []);
      for (const e of found) groupsOfEntry.set(e, [...(groupsOfEntry.get(e) ?? []), card.name]);
      if (!found.length && ref.startsWith('email:'))
        unresolvedEmails.push({ group: card.name, email: ref.slice(6) });
    }
  }

  // What the address book holds, read once (again after a batch that lost a race).
  const byEmail = new Map<string, number>();
  // By name: any contact (for an entry without an address), or one without an address (for an entry with
  // some): two people of one name with addresses of their own stay two.
  const byName = new Map<string, number>();
  const byNameWithoutAddress = new Map<string, number>();
  const groupIds = new Map<string, number | null>();
  let contactCount = 0;
  let groupCount = 0;
  let target: { id: number; name: string } | undefined;
  const knowName = (name: string, surname: string, id: number, hasAddress: boolean) => {
    const key = nameKey(name, surname);
    if (!byName.has(key)) byName.set(key, id);
    if (!hasAddress && !byNameWithoutAddress.has(key)) byNameWithoutAddress.set(key, id);
    if (hasAddress && byNameWithoutAddress.get(key) === id) byNameWithoutAddress.delete(key);
  };
  const readAddressBook = async () => {
    byEmail.clear();
    byName.clear();
    byNameWithoutAddress.clear();
    groupIds.clear();
    const keys = await contactKeys(db, accountId);
    for (const k of keys) {
      for (const e of k.emails) if (!byEmail.has(e)) byEmail.set(e, k.id);
      knowName(k.name, k.surname, k.id, k.emails.length > 0);
    }
    contactCount = keys.length;
    groupCount = await countGroups(db, accountId);
    target = row.group_id !== null ? await findGroup(db, accountId, row.group_id) : undefined;
    if (target) groupIds.set(target.name.toLowerCase(), target.id);
  };

  /** A group's id by name, made when missing and there is room; null when there is none. */
  const groupId = async (trx: Trx, name: string): Promise<number | null> => {
    const key = name.toLowerCase();
    const known = groupIds.get(key);
    if (known !== undefined) return known;
    let id: number | null;
    const found = await findGroupByName(trx, accountId, clip(name, 200));
    if (found) id = found.id;
    else if (groupCount >= deps.limits.maxGroups) {
      id = null;
      progress.groups_over_limit++;
    } else {
      id = (await insertGroup(trx, accountId, clip(name, 200))).id;
      groupCount++;
      progress.groups_added++;
    }
    groupIds.set(key, id);
    return id;
  };

  const importEntry = async (trx: Trx, entry: ImportEntry) => {
    const values = valuesOf(entry);
    if (!values.name && !values.surname) {
      if (!values.emails.length) return skip(entry.entry, 'no name and no address');
      values.name = values.emails[0]!;
    }
    const names = [...entry.groups, ...(groupsOfEntry.get(entry) ?? []), ...(target ? [target.name] : [])]
      .map((g) => g.trim())
      .filter(Boolean);
    const match =
      values.emails.map((e) => byEmail.get(e.toLowerCase())).find((id) => id !== undefined) ??
      (values.emails.length ? byNameWithoutAddress : byName).get(nameKey(values.name, values.surname));
    let contactId: number;
    let changed = false;
    if (match === undefined) {
      if (contactCount >= deps.limits.max) {
        progress.over_limit++;
        return;
      }
      contactId = await saveContact(trx, accountId, null, values);
      contactCount++;
      progress.added++;
    } else {
      contactId = match;
      const [current] = await findContacts(trx, accountId, [match]);
      const next = current ? merged(current, values) : null;
      if (next) {
        await saveContact(trx, accountId, match, next);
        changed = true;
        for (const e of next.emails) if (!byEmail.has(e.toLowerCase())) byEmail.set(e.toLowerCase(), match);
      }
    }
    for (const e of values.emails) if (!byEmail.has(e.toLowerCase())) byEmail.set(e.toLowerCase(), contactId);
    knowName(values.name, values.surname, contactId, values.emails.length > 0);
    for (const name of new Set(names.map((n) => n.toLowerCase()))) {
      const id = await groupId(
        trx,
        names.find((n) => n.toLowerCase() === name)!,
      );
      if (id !== null && (await addMembers(trx, id, [contactId])) > 0 && match !== undefined) changed = true;
    }
    if (match !== undefined) {
      if (changed) progress.updated++;
      else progress.unchanged++;
    }
  };

  /** One batch in one transaction; the import's progress stored with it. */
  const batch = async (): Promise<ContactImportView> =>
    transact(db, async (trx) => {
      await lockAddressBook(trx, accountId);
      if (progress.done === 0)
        for (const card of parsed.groupCards) if (card.name.trim()) await groupId(trx, card.name.trim());
      const budget = timeSlicer(batchMs);
      const start = progress.done;
      while (progress.done < parsed.entries.length && progress.done - start < BATCH_MAX && !budget.spent())
        await importEntry(trx, parsed.entries[progress.done++]!);
      if (progress.done >= parsed.entries.length) {
        for (const { group, email } of unresolvedEmails) {
          const id = byEmail.get(email);
          const gid = id !== undefined ? await groupId(trx, group) : null;
          if (id !== undefined && gid !== null) await addMembers(trx, gid, [id]);
        }
        progress.state = 'done';
      }
      return saveProgress(trx, row.id, progress);
    });

  try {
    await readAddressBook();
    while (progress.state === 'running') {
      const before = { ...progress, skipped: [...progress.skipped] };
      let view: ContactImportView;
      try {
        view = await batch();
      } catch (err) {
        // Another writer made the same group or address meanwhile: read the address book again, run the batch again.
        if (!isUniqueViolation(err)) throw err;
        Object.assign(progress, before);
        await readAddressBook();
        view = await batch();
      }
      await publish(view, progress.state !== 'running');
      await new Promise((resolve) => setImmediate(resolve));
    }
  } catch (err) {
    if (!(err instanceof DomainError)) deps.log.error({ err, importId: row.id }, 'contacts import failed');
    await fail(err);
    return;
  }
  if (progress.added || progress.updated || progress.groups_added)
    await emit(deps.db, deps, accountId, [
      { event: 'updateAccount', part: 'contacts' },
      { event: 'updateAccount', part: 'groups' },
    ]);
}

/** Works through queued imports, one at a time in this process; woken by a new one. */
export function startContactImports(deps: ContactImportDeps & { pollMs?: number }): {
  stop(): Promise<void>;
} {
  return startQueueWorker({
    db: deps.db,
    name: 'contact-imports',
    log: deps.log,
    pollMs: deps.pollMs ?? 5_000,
    leaseMs: IMPORT_LEASE_MS,
    handlers: { [CONTACT_IMPORT_JOB]: contactImportHandler(deps) },
  });
}
