import { isDeepStrictEqual } from 'node:util';
import {
  CONTACT_EMAILS_MAX,
  CONTACT_IMPORT_SKIPPED_LISTED,
  isEmail,
  type ContactImportResponse,
  type contactImportQuerySchema,
} from '@mailroom/protocol';
import type { z } from 'zod';
import { isUniqueViolation, transact, type Db, type Trx, type VcardProperty } from '../core/db/index.js';
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
import { decodeFile, decodeFileSliced } from './charset.js';
import { looksLikeContactsCsv, parseContactsCsvSliced } from './contacts-csv.js';
import type { ContactLimits } from './contacts.service.js';
import {
  allContacts,
  contactKeys,
  findContacts,
  lockAddressBook,
  saveContact,
  type ContactValues,
} from './contacts.repository.js';
import {
  addMembers,
  countGroups,
  findGroup,
  findGroupByName,
  insertGroup,
  listGroups,
} from './groups.repository.js';
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
import { parseVcardsSliced, writeVcards } from './vcard.js';
import { VCARD_PROPERTIES_MAX } from './vcard-prepass.js';

type PublishLog = BasePublishLog & {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/** The largest contacts file an import reads (the route refuses a larger body with request_entity_too_large). */
export const CONTACTS_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** A file's kind, found cheaply (the request answers at once): vCard when told or when it holds a BEGIN:VCARD, CSV
 * when told or when its header is known; else contacts_file_unreadable. */
export function contactsFileFormat(file: Buffer, format: 'auto' | 'vcard' | 'csv'): 'vcard' | 'csv' {
  const head = file.subarray(0, 64 * 1024).toString('latin1');
  if (format === 'vcard' || (format === 'auto' && /^\s*BEGIN:VCARD\s*$/im.test(head))) {
    if (!/^\s*BEGIN:VCARD\s*$/im.test(file.toString('latin1')))
      throw new DomainError('contacts_file_unreadable');
    return 'vcard';
  }
  if (format === 'csv' || looksLikeContactsCsv(decodeFile(file.subarray(0, 64 * 1024)))) return 'csv';
  throw new DomainError('contacts_file_unreadable');
}

/** A file's entries, read a slice at a time with `pause` between (see contactsFileFormat for the kind). */
export async function parseContactsFile(
  file: Buffer,
  format: 'vcard' | 'csv',
  pause: () => Promise<void>,
): Promise<ParsedFile> {
  if (format === 'vcard') {
    const parsed = await parseVcardsSliced(file, pause);
    if (!parsed.entries.length && !parsed.groupCards.length && !parsed.skipped.length)
      throw new DomainError('contacts_file_unreadable');
    return parsed;
  }
  // A NUL is no character a text column holds.
  const text = (await decodeFileSliced(file, pause)).replaceAll('\u0000', '');
  try {
    return await parseContactsCsvSliced(text, pause);
  } catch (err) {
    throw new DomainError(
      'contacts_file_unreadable',
      `The CSV file cannot be read: ${(err as Error).message}`,
    );
  }
}

const clip = (text: string, max: number) => text.slice(0, max);
const nameKey = (name: string, surname: string) =>
  `${name.trim().toLowerCase()}\u0000${surname.trim().toLowerCase()}`;

/** An entry's values as a contact would hold them: addresses checked (others kept as vCard properties), lengths cut. */
function valuesOf(entry: ImportEntry): ContactValues {
  const emails: string[] = [];
  const properties: VcardProperty[] = [...entry.properties];
  const seen = new Set<string>();
  for (const raw of entry.emails.map((e) => e.trim())) {
    if (seen.has(raw.toLowerCase())) continue;
    seen.add(raw.toLowerCase());
    if (isEmail(raw) && emails.length < CONTACT_EMAILS_MAX) emails.push(raw);
    else properties.push(['email', {}, 'text', raw]);
  }
  return {
    name: clip(entry.name.trim(), 200),
    surname: clip(entry.surname.trim(), 200),
    emails,
    phone: clip(entry.phone.trim(), 100),
    birthday: entry.birthday,
    notes: clip(entry.notes, 10_000),
    properties: properties.slice(0, VCARD_PROPERTIES_MAX),
  };
}

/**
 * What an entry adds to a contact already there: addresses it lacks, a phone, date of birth or notes where it has
 * none (another phone kept as a vCard TEL), properties it does not have. Null when it adds nothing.
 */
function merged(current: ContactValues, incoming: ContactValues): ContactValues | null {
  const next: ContactValues = {
    ...current,
    emails: [...current.emails],
    properties: [...current.properties],
  };
  const has = new Set(current.emails.map((e) => e.toLowerCase()));
  for (const email of incoming.emails)
    if (!has.has(email.toLowerCase()) && next.emails.length < CONTACT_EMAILS_MAX) {
      next.emails.push(email);
      has.add(email.toLowerCase());
    }
  const extraTel: VcardProperty = ['tel', {}, 'text', incoming.phone];
  if (!next.phone) next.phone = incoming.phone;
  else if (
    incoming.phone &&
    incoming.phone !== next.phone &&
    !next.properties.some((p) => p[0] === 'tel' && p[3] === incoming.phone)
  )
    next.properties.push(extraTel);
  next.birthday ??= incoming.birthday;
  if (!next.notes) next.notes = incoming.notes;
  for (const p of incoming.properties)
    if (
      next.properties.length < VCARD_PROPERTIES_MAX &&
      !next.properties.some((q) => isDeepStrictEqual(q, p))
    )
      next.properties.push(p);
  return isDeepStrictEqual(next, current) ? null : next;
}

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
  const format = contactsFileFormat(file, query.format);
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

/** A file name for Content-Disposition: the group's name (or "contacts"), ASCII-safe beside its UTF-8 form. */
function fileNameFor(name: string): { ascii: string; utf8: string } {
  // eslint-disable-next-line no-control-regex
  const base = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim() || 'contacts';
  const ascii = base.replace(/[^\x20-\x7e]/g, '_');
  return { ascii: `${ascii}.vcf`, utf8: `${base}.vcf` };
}

/** GET contacts/export: every contact, or one group's, as one vCard 4.0 file with its groups as CATEGORIES. */
export async function exportContacts(
  db: Db,
  accountId: number,
  groupId: number | undefined,
): Promise<{ text: string; fileName: { ascii: string; utf8: string } }> {
  const group = groupId !== undefined ? await requireGroup(db, accountId, groupId) : undefined;
  const [contacts, groups] = await Promise.all([
    allContacts(db, accountId, groupId),
    listGroups(db, accountId),
  ]);
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  const text = writeVcards(
    contacts.map((c) => ({
      ...c,
      groups: c.groups
        .map((id) => groupName.get(id))
        .filter((n): n is string => n !== undefined)
        .sort((x, y) => x.localeCompare(y, 'en')),
    })),
  );
  return { text, fileName: fileNameFor(group?.name ?? 'contacts') };
}
