import { pipeline } from 'node:stream/promises';
import type { ImapFlow, FetchMessageObject, ListResponse } from 'imapflow';
import type { Logger } from 'pino';
import type { Collector, ImapServer, MailEvent } from '@mailroom/protocol';
import { collectorFolderName } from '@mailroom/protocol';
import { getSettings, requireAccount } from '../accounts/index.js';
import type { BlobStore, SpooledFile } from '../core/blobs/index.js';
import { transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { collectGarbageIfGrown } from '../core/idle-collection.js';
import { emit, type EventBus } from '../core/events/index.js';
import { planDelivery, recordFilterErrors, type DeliveryPlan } from '../filters/index.js';
import {
  ensureCollectorFolderPath,
  importedDate,
  ingest,
  IngestFailed,
  lockAccount,
  markMessages,
  messagePlaces,
  parseMessage,
  parseMessageFile,
  putMessageBlobs,
  composeNotice,
  storeNotice,
  type MessageBlobs,
  type ParsedMessage,
} from '../mailbox/index.js';
import { openCollectorPassword } from './collector-password.js';
import { collectorMetrics } from './collector-metrics.js';
import {
  advanceCollectorFolder,
  collectorFolders,
  copiedMessageIds,
  countCopied,
  ensureCollectorFolderRow,
  hasOtherUidvalidity,
  matchFingerprints,
  recordCopied,
  setCopiedMessage,
  updateCollectorFolder,
  type CollectorFolderRow,
  type CopiedMessage,
} from './collector-records.repository.js';
import {
  markImporting,
  releaseCollector,
  releaseCollectorIn,
  renewLease,
  saveProgress,
  type CollectorProgressColumns,
  type CollectorRow,
  type PassOutcome,
} from './collector-sync.repository.js';
import {
  backoffMs,
  importedFlags,
  localFolderPath,
  messageFingerprint,
  type ImportedFlags,
} from './collector-sync.js';

/**
 * The import engine (issue 18): one pass over a collector's remote mailbox. A pass claims a due collector under a
 * lease, signs in, lists the folders (imapflow decodes modified UTF-7 names), and for each one copies the messages
 * above the highest UID copied so far, in batches: the sources of a batch are fetched (the next batch's while this
 * one is stored; a large message streamed to a spool file, never held whole), parsed, their blobs written, and then
 * one transaction stores the messages (quota counted, the sender's date, \Seen \Flagged \Answered) together with the
 * collector_messages rows saying they were copied and the folder's new highest UID — so a kill at any point neither
 * loses nor duplicates a message, and two processes reaching the same UIDs store them once. A changed UIDVALIDITY is
 * met by the fingerprints (Message-ID, date, size) of what was copied before. With CONDSTORE, flag changes of copied
 * messages since the last pass are brought over too. Then the collector is due again after the poll interval; server
 * errors back off, repeated sign-in refusals stop it and tell its owner.
 */

export interface CollectorImportSettings {
  pollMinutes: number;
  messageMaxBytes: number;
  authFailuresToStop: number;
}

export interface CollectorImportDeps {
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  log: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  settings: CollectorImportSettings;
  /** The sender of the notices the owner gets (no-reply@MAIL_DOMAIN). */
  mailDomain: string;
  /** Secrets.collectorPasswordSecret. */
  passwordSecret: string;
  /** Signs in to the remote server (connectImap, with the address policy). */
  connect: (server: ImapServer, auth: { user: string; pass: string }) => Promise<ImapFlow>;
  /** What went wrong, as a catalogue code (imapErrorCode); collector_invalid_password for a refused sign-in. */
  errorCode: (err: unknown) => string;
  /** The row → API view (the collectors' own); the `collector` event carries it. */
  view: (row: CollectorRow) => Collector;
  /** This process's name on the leases it takes. */
  owner: string;
  /** How long a lease lasts unless renewed (default 2 minutes; renewed every third of it). */
  leaseMs?: number;
  /** The first wait after a server error, doubling each time up to the cap (default 1 minute, 1 hour). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Messages and bytes a batch holds at most (default 100 messages, 8 MiB). */
  batchMessages?: number;
  batchBytes?: number;
  /** Messages larger than this are streamed to a spool file one at a time (default 1 MiB). */
  streamAboveBytes?: number;
  /** Fewest milliseconds between two progress events of one collector (default 300). */
  progressIntervalMs?: number;
  /** Aborts the pass between batches (the process is stopping): the collector is due again at once. */
  signal?: AbortSignal;
  /** Called after each committed batch (tests stop a pass there). */
  afterBatch?: (copied: number) => void | Promise<void>;
}

const DEFAULTS = {
  leaseMs: 120_000,
  backoffBaseMs: 60_000,
  backoffCapMs: 3600_000,
  batchMessages: 100,
  batchBytes: 8 * 2 ** 20,
  streamAboveBytes: 2 ** 20,
  progressIntervalMs: 300,
};
/** UIDs whose metadata one FETCH asks for. */
const META_CHUNK = 2000;

/** The pass must end now without writing its outcome: the lease is another process's, or the process is stopping. */
class PassEnded extends Error {
  constructor(readonly reason: 'lease' | 'abort') {
    super(`collector pass ended: ${reason}`);
  }
}

/**
 * Runs the pass of a collector taken for it (takeCollector, by its job in collector-jobs.ts). Never throws for the
 * remote server: what went wrong is written on the collector (and published).
 */
export async function runPassOf(deps: CollectorImportDeps, row: CollectorRow): Promise<void> {
  await new CollectorPass(deps, row).run();
}

interface RemoteMessage {
  uid: number;
  size: number;
  flags: ImportedFlags;
  internalDate: Date | null;
  fingerprint: string;
  /** Copy it, or only record it: matched by fingerprint to an earlier copy, or over the size cap. */
  action: { copy: true } | { copy: false; messageId: number | null; skipped: boolean };
}

/** A fetched source: bytes in memory, or a spooled file for a large one; null when the server gave nothing. */
type Source = Buffer | SpooledFile | null;

interface Prepared {
  message: RemoteMessage;
  parsed: ParsedMessage;
  blobs: MessageBlobs;
  plan: DeliveryPlan | null;
}

class CollectorPass {
  private readonly leaseMs: number;
  private readonly progress: CollectorProgressColumns = {
    folders_done: 0,
    folders_total: 0,
    messages_done: 0,
    messages_total: 0,
    messages_skipped: 0,
  };
  private lost = false;
  private lastPublished = 0;
  private accountEmail = '';

  constructor(
    private readonly deps: CollectorImportDeps,
    private row: CollectorRow,
  ) {
    this.leaseMs = deps.leaseMs ?? DEFAULTS.leaseMs;
  }

  private get accountId() {
    return this.row.account_id;
  }

  async run(): Promise<void> {
    const { deps } = this;
    const renewal = setInterval(() => {
      renewLease(deps.db, this.row.id, deps.owner, this.leaseMs).then(
        (ok) => void (ok || (this.lost = true)),
        (err: unknown) => deps.log.warn({ err, collector: this.row.id }, 'renewing a collector lease failed'),
      );
    }, this.leaseMs / 3);
    renewal.unref();
    let client: ImapFlow | null = null;
    try {
      const importing = await markImporting(deps.db, this.row.id, deps.owner);
      if (!importing) return;
      this.row = importing;
      await this.publish(true);
      this.accountEmail = (await requireAccount(deps.db, this.accountId)).email;
      const pass = openCollectorPassword(deps.passwordSecret, this.row.password_sealed);
      client = await deps.connect(
        { host: this.row.host, port: this.row.port, security: this.row.security },
        { user: this.row.login, pass },
      );
      client.on('error', (err: unknown) =>
        deps.log.debug({ err, collector: this.row.id }, 'collector connection error'),
      );
      await this.importAll(client);
      collectorMetrics.pass('synced');
      await this.finish({
        state: 'idle',
        nextSyncInMs: deps.settings.pollMinutes * 60_000,
        lastError: null,
        failures: 0,
        authFailures: 0,
        synced: true,
      });
    } catch (err) {
      await this.failed(err);
    } finally {
      clearInterval(renewal);
      if (client) await closeQuietly(client);
    }
  }

  /** What a failure means for the collector: nothing (the pass was taken away), quota, a refusal, a server error. */
  private async failed(err: unknown): Promise<void> {
    const { deps, row } = this;
    if (err instanceof PassEnded) {
      collectorMetrics.pass(err.reason === 'abort' ? 'stopping' : 'lease_lost');
      if (err.reason === 'abort')
        await this.finish({
          state: 'idle',
          nextSyncInMs: 0,
          lastError: row.last_error,
          failures: row.failures,
          authFailures: row.auth_failures,
          synced: false,
        });
      return;
    }
    if (err instanceof DomainError && err.code === 'quota_exceeded') {
      collectorMetrics.pass('quota');
      await this.finish({
        state: 'idle',
        nextSyncInMs: deps.settings.pollMinutes * 60_000,
        lastError: 'quota_exceeded',
        failures: 0,
        authFailures: 0,
        synced: false,
      });
      return;
    }
    const code = deps.errorCode(err);
    const base = deps.backoffBaseMs ?? DEFAULTS.backoffBaseMs;
    const cap = deps.backoffCapMs ?? DEFAULTS.backoffCapMs;
    if (code === 'collector_invalid_password') {
      const authFailures = row.auth_failures + 1;
      if (authFailures >= deps.settings.authFailuresToStop) {
        collectorMetrics.pass('stopped');
        await this.stop(authFailures);
        return;
      }
      collectorMetrics.pass('auth_failed');
      await this.finish({
        state: 'retrying',
        nextSyncInMs: backoffMs(authFailures, base, cap),
        lastError: code,
        failures: row.failures,
        authFailures,
        synced: false,
      });
      return;
    }
    deps.log.warn({ err, collector: row.id, code }, 'collector pass failed');
    collectorMetrics.pass('failed');
    const failures = row.failures + 1;
    await this.finish({
      state: 'retrying',
      nextSyncInMs: backoffMs(failures, base, cap),
      lastError: code,
      failures,
      authFailures: 0,
      synced: false,
    });
  }

  private async finish(outcome: PassOutcome): Promise<void> {
    const released = await releaseCollector(this.deps.db, this.row.id, this.deps.owner, {
      ...outcome,
      progress: this.progress,
    }).catch((err: unknown) => {
      this.deps.log.error({ err, collector: this.row.id }, 'ending a collector pass failed');
      return undefined;
    });
    if (!released) return;
    this.row = released;
    await this.publish(true);
  }

  /** Repeated refusals: the collector stops, and its owner finds a notice in the Inbox (both in one transaction). */
  private async stop(authFailures: number): Promise<void> {
    const { deps, row } = this;
    const language = (await getSettings(deps.db, this.accountId)).language === 'ru' ? 'ru' : 'en';
    const { subject, text } = stopNotice[language](row.email);
    const raw = await composeNotice(deps.mailDomain, {
      to: this.accountEmail || row.email,
      subject,
      text: `${text}\n`,
    });
    let released: CollectorRow | undefined;
    const { events } = await storeNotice(deps.db, deps.blobs, this.accountId, raw, async (trx) => {
      released = await releaseCollectorIn(trx as Trx, row.id, deps.owner, {
        state: 'stopped',
        nextSyncInMs: null,
        lastError: 'collector_invalid_password',
        failures: row.failures,
        authFailures,
        synced: false,
        progress: this.progress,
      });
      // Another process holds the collector now: it tells the owner, not this one.
      if (!released) throw new PassEnded('lease');
    }).catch((err: unknown) => {
      if (err instanceof PassEnded) return { events: [] as MailEvent[] };
      throw err;
    });
    await emit(deps.db, deps, this.accountId, events);
    if (released) {
      this.row = released;
      await this.publish(true);
    }
  }

  /** The `collector` event, at most every progressIntervalMs unless forced (a change of state). */
  private async publish(force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - this.lastPublished < (this.deps.progressIntervalMs ?? DEFAULTS.progressIntervalMs))
      return;
    this.lastPublished = now;
    const collector = this.deps.view({ ...this.row, ...this.progress });
    await emit(this.deps.db, this.deps, this.accountId, [{ event: 'collector', collector }]);
  }

  private checkGoing(): void {
    if (this.lost) throw new PassEnded('lease');
    if (this.deps.signal?.aborted) throw new PassEnded('abort');
  }

  private async importAll(client: ImapFlow): Promise<void> {
    const listed = await client.list({ statusQuery: { messages: true } });
    const folders = listed.filter(
      (f) => !hasFlag(f.flags, '\\Noselect') && !hasFlag(f.flags, '\\NonExistent'),
    );
    const rows = new Map((await collectorFolders(this.deps.db, this.row.id)).map((r) => [r.remote_path, r]));
    this.progress.folders_total = folders.length;
    this.progress.messages_total = folders.reduce((n, f) => n + (f.status?.messages ?? 0), 0);
    this.progress.messages_skipped = 0;
    let done = 0;
    for (const f of folders) {
      const row = rows.get(f.path);
      if (row?.uidvalidity != null)
        done += Math.min(
          f.status?.messages ?? 0,
          await countCopied(this.deps.db, row.id, Number(row.uidvalidity)),
        );
    }
    this.progress.messages_done = done;
    await this.saveProgress();
    for (const folder of folders) {
      this.checkGoing();
      await this.importFolder(client, folder, rows.get(folder.path));
      this.progress.folders_done++;
      await this.saveProgress();
    }
  }

  private async saveProgress(): Promise<void> {
    const saved = await saveProgress(this.deps.db, this.row.id, this.deps.owner, this.progress);
    if (!saved) throw new PassEnded('lease');
    this.row = saved;
    await this.publish();
  }

  private async importFolder(client: ImapFlow, entry: ListResponse, known?: CollectorFolderRow) {
    const { deps } = this;
    let cf = known ?? (await ensureCollectorFolderRow(deps.db, this.row.id, entry.path));
    const mailbox = await client.mailboxOpen(entry.path, { readOnly: true });
    const uidvalidity = Number(mailbox.uidValidity);
    let lastUid = Number(cf.last_uid);
    if (cf.uidvalidity === null || Number(cf.uidvalidity) !== uidvalidity) {
      // A new folder, or the server renumbered it: everything is looked at again, and fingerprints find the copies.
      lastUid = 0;
      await updateCollectorFolder(deps.db, cf.id, { uidvalidity, last_uid: 0, highest_modseq: null });
      cf = { ...cf, uidvalidity, last_uid: 0, highest_modseq: null };
    }
    const rematch = await hasOtherUidvalidity(deps.db, cf.id, uidvalidity);
    const folderId = await this.localFolder(cf, entry);
    const condstore = mailbox.highestModseq !== undefined && !mailbox.noModseq;

    if (
      condstore &&
      cf.highest_modseq !== null &&
      lastUid > 0 &&
      BigInt(cf.highest_modseq) < mailbox.highestModseq!
    )
      await this.syncFlags(client, cf, uidvalidity, lastUid, BigInt(cf.highest_modseq));

    const uidNext = mailbox.uidNext;
    if (mailbox.exists > 0) {
      for (let from = lastUid + 1; !uidNext || from < uidNext; from += META_CHUNK) {
        this.checkGoing();
        const to = uidNext ? Math.min(from + META_CHUNK - 1, uidNext - 1) : '*';
        const metas = (
          await client.fetchAll(
            `${from}:${to}`,
            { uid: true, flags: true, size: true, internalDate: true, envelope: true },
            { uid: true },
          )
        )
          .filter((m) => m.uid >= from)
          .sort((a, b) => a.uid - b.uid);
        stillConnected(client);
        if (metas.length) await this.copyMessages(client, cf, uidvalidity, folderId, metas, rematch);
        if (!uidNext) break;
      }
    }
    if (condstore)
      await updateCollectorFolder(deps.db, cf.id, { highest_modseq: mailbox.highestModseq!.toString() });
  }

  /** The local folder of a remote one: made (with its parents) the first time, and again if the user deleted it. */
  private async localFolder(cf: CollectorFolderRow, entry: ListResponse): Promise<number> {
    if (cf.folder_id !== null) return cf.folder_id;
    const base = this.row.folder_name || collectorFolderName(this.row.email);
    const { id, created } = await ensureCollectorFolderPath(
      this.deps.db,
      this.accountId,
      localFolderPath(base, entry.path, entry.delimiter || null),
    );
    await updateCollectorFolder(this.deps.db, cf.id, { folder_id: id });
    if (created) await emit(this.deps.db, this.deps, this.accountId, [{ event: 'updateMailboxList' }]);
    return id;
  }

  /** Decides for each remote message: copy, or only record (an earlier copy under another UIDVALIDITY, too large). */
  private async classify(
    cf: CollectorFolderRow,
    uidvalidity: number,
    metas: FetchMessageObject[],
    rematch: boolean,
  ): Promise<RemoteMessage[]> {
    const cap = this.deps.settings.messageMaxBytes;
    const messages = metas.map((m) => {
      const envelopeDate = m.envelope?.date ? new Date(m.envelope.date) : null;
      const internalDate = m.internalDate ? new Date(m.internalDate) : null;
      return {
        uid: m.uid,
        size: m.size ?? 0,
        flags: importedFlags(m.flags),
        internalDate,
        fingerprint: messageFingerprint(m.envelope?.messageId, envelopeDate, m.size ?? 0),
        action: { copy: true } as RemoteMessage['action'],
      };
    });
    const matches = rematch
      ? await matchFingerprints(
          this.deps.db,
          cf.id,
          uidvalidity,
          messages.map((m) => m.fingerprint),
        )
      : new Map();
    for (const m of messages) {
      const match = matches.get(m.fingerprint);
      if (match && match.before > match.now) {
        match.now++;
        m.action = { copy: false, messageId: match.messageId, skipped: false };
      } else if (m.size > cap) m.action = { copy: false, messageId: null, skipped: true };
    }
    return messages;
  }

  private async copyMessages(
    client: ImapFlow,
    cf: CollectorFolderRow,
    uidvalidity: number,
    folderId: number,
    metas: FetchMessageObject[],
    rematch: boolean,
  ): Promise<void> {
    const messages = await this.classify(cf, uidvalidity, metas, rematch);
    const batches = this.batches(messages);
    // The next batch's sources are fetched while this one is stored (the IMAP connection and the database overlap).
    const fetching = (batch: RemoteMessage[]) => {
      const promise = this.fetchSources(client, batch);
      // Awaited below; until then a failure (the connection dropped) must not count as unhandled.
      promise.catch(() => undefined);
      return promise;
    };
    let next: Promise<Map<number, Source>> | null = batches.length ? fetching(batches[0]!) : null;
    for (let i = 0; i < batches.length; i++) {
      const sources = await next!;
      next = i + 1 < batches.length ? fetching(batches[i + 1]!) : null;
      try {
        this.checkGoing();
        await this.storeBatch(cf, uidvalidity, folderId, batches[i]!, sources);
      } catch (err) {
        // The fetch in flight must settle (and its spooled files go) before the pass ends.
        if (next)
          await next.then(
            (s) => this.discard(s),
            () => undefined,
          );
        await this.discard(sources);
        throw err;
      }
    }
  }

  private batches(messages: RemoteMessage[]): RemoteMessage[][] {
    const maxMessages = this.deps.batchMessages ?? DEFAULTS.batchMessages;
    const maxBytes = this.deps.batchBytes ?? DEFAULTS.batchBytes;
    const streamAbove = this.deps.streamAboveBytes ?? DEFAULTS.streamAboveBytes;
    const out: RemoteMessage[][] = [];
    let current: RemoteMessage[] = [];
    let bytes = 0;
    for (const m of messages) {
      const weight = m.action.copy ? (m.size > streamAbove ? maxBytes : m.size) : 0;
      if (current.length && (current.length >= maxMessages || bytes + weight > maxBytes)) {
        out.push(current);
        current = [];
        bytes = 0;
      }
      current.push(m);
      bytes += weight;
    }
    if (current.length) out.push(current);
    return out;
  }

  /** The sources of a batch's messages to copy: small ones in one FETCH, a large one streamed to a spool file. */
  private async fetchSources(client: ImapFlow, batch: RemoteMessage[]): Promise<Map<number, Source>> {
    const streamAbove = this.deps.streamAboveBytes ?? DEFAULTS.streamAboveBytes;
    const sources = new Map<number, Source>();
    const small = batch.filter((m) => m.action.copy && m.size <= streamAbove).map((m) => m.uid);
    const large = batch.filter((m) => m.action.copy && m.size > streamAbove).map((m) => m.uid);
    try {
      if (small.length)
        for await (const m of client.fetch(small.join(','), { uid: true, source: true }, { uid: true }))
          if (m.source) sources.set(m.uid, m.source);
      // A FETCH on a connection that dropped can end with nothing: that is not the messages being gone.
      stillConnected(client);
      for (const uid of large) {
        const { content } = await client.download(String(uid), undefined, { uid: true });
        if (!content) continue;
        const spool = this.deps.blobs.openSpool({ maxBytes: this.deps.settings.messageMaxBytes });
        await pipeline(content, spool);
        sources.set(uid, spool.file());
      }
    } catch (err) {
      await this.discard(sources);
      throw err;
    }
    return sources;
  }

  private async discard(sources: Map<number, Source>): Promise<void> {
    for (const s of sources.values())
      if (s && !Buffer.isBuffer(s)) await this.deps.blobs.discardSpooled(s).catch(() => undefined);
  }

  private async prepare(message: RemoteMessage, source: Buffer | SpooledFile): Promise<Prepared> {
    const { deps } = this;
    const parsed = Buffer.isBuffer(source) ? await parseMessage(source) : await parseMessageFile(source);
    const blobs = await putMessageBlobs(deps.blobs, source);
    const plan = this.row.apply_filters
      ? await planDelivery(
          deps.db,
          this.accountId,
          () => (Buffer.isBuffer(source) ? Promise.resolve(source) : deps.blobs.get(blobs.raw.hash)),
          { from: '', to: this.accountEmail },
        ).catch((err: unknown) => {
          deps.log.warn({ err }, 'running the filters on an imported message failed');
          return null;
        })
      : null;
    return { message, parsed, blobs, plan };
  }

  private async storeBatch(
    cf: CollectorFolderRow,
    uidvalidity: number,
    folderId: number,
    batch: RemoteMessage[],
    sources: Map<number, Source>,
  ): Promise<void> {
    const { deps } = this;
    const records: CopiedMessage[] = [];
    const toPrepare: [RemoteMessage, Buffer | SpooledFile][] = [];
    for (const m of batch) {
      if (!m.action.copy) {
        records.push({ uid: m.uid, messageId: m.action.messageId, fingerprint: m.fingerprint });
        if (m.action.skipped) this.progress.messages_skipped++;
        continue;
      }
      const source = sources.get(m.uid);
      // Gone from the server between the listing and the fetch: nothing to copy, nothing to record.
      if (!source) {
        this.progress.messages_skipped++;
        continue;
      }
      toPrepare.push([m, source]);
    }
    const prepared = await Promise.all(toPrepare.map(([m, s]) => this.prepare(m, s)));
    const maxUid = batch[batch.length - 1]!.uid;
    let published: MailEvent[];
    try {
      published = await this.commit(cf, uidvalidity, folderId, records, prepared, maxUid, batch.length);
      this.progress.messages_done += batch.length;
    } catch (err) {
      if (!(err instanceof DomainError && err.code === 'quota_exceeded')) throw err;
      // What fits is stored one message at a time; the first that does not ends the pass with quota_exceeded.
      published = [];
      const byUid = new Map(prepared.map((p) => [p.message.uid, p]));
      try {
        for (const m of batch) {
          const p = byUid.get(m.uid);
          const record = records.filter((r) => r.uid === m.uid);
          published.push(...(await this.commit(cf, uidvalidity, folderId, record, p ? [p] : [], m.uid, 1)));
          this.progress.messages_done++;
        }
      } finally {
        await emit(deps.db, deps, this.accountId, mergeEvents(published));
      }
    }
    await emit(deps.db, deps, this.accountId, mergeEvents(published));
    const filterErrors = prepared.flatMap((p) => p.plan?.errors ?? []);
    if (filterErrors.length)
      await recordFilterErrors(deps.db, this.accountId, filterErrors).catch((err: unknown) =>
        deps.log.warn({ err }, 'recording a filter error failed'),
      );
    if (prepared.some((p) => p.plan?.foldersCreated))
      await emit(deps.db, deps, this.accountId, [{ event: 'updateMailboxList' }]);
    await this.publish();
    // A whole mailbox is a long run of batches: their garbage is collected as it goes, not left to pile up.
    collectGarbageIfGrown();
    await deps.afterBatch?.(batch.length);
  }

  /**
   * One transaction: the account row first (the one lock order), the remote messages recorded (those another process
   * recorded already are left alone), their messages stored with the folder's new highest UID and the pass's
   * progress, and the lease checked last — a pass that lost it rolls everything back.
   */
  private async commit(
    cf: CollectorFolderRow,
    uidvalidity: number,
    folderId: number,
    records: CopiedMessage[],
    prepared: Prepared[],
    maxUid: number,
    count: number,
  ): Promise<MailEvent[]> {
    const { deps } = this;
    const events: MailEvent[] = [];
    const progress = { ...this.progress, messages_done: this.progress.messages_done + count };
    let copied = 0;
    await transact(deps.db, async (trx) => {
      copied = 0;
      await lockAccount(trx, this.accountId);
      const all = [
        ...records,
        ...prepared.map((p) => ({ uid: p.message.uid, messageId: null, fingerprint: p.message.fingerprint })),
      ];
      const claimed = await recordCopied(trx, cf.id, uidvalidity, all);
      for (const p of prepared) {
        if (!claimed.has(p.message.uid)) continue;
        // The plan's Inbox is where imported mail goes without a filter: the remote folder's own.
        const ingested = await ingest(
          trx,
          deps.blobs,
          {
            parsed: p.parsed,
            blobs: p.blobs,
            flags: p.message.flags,
            receivedAt: importedDate(p.parsed.sentAt, p.message.internalDate),
          },
          [{ accountId: this.accountId, inbox: folderId, copies: p.plan?.copies ?? [{ folder: 'inbox' }] }],
        ).catch((err: unknown) => {
          throw err instanceof IngestFailed ? err.cause : err;
        });
        for (const [, stored] of ingested.events) events.push(...stored);
        const first = ingested.accounts[0]!.stored[0]?.id ?? null;
        if (first !== null) await setCopiedMessage(trx, cf.id, uidvalidity, p.message.uid, first);
        copied++;
      }
      await advanceCollectorFolder(trx, cf.id, maxUid, claimed.size);
      const held = await saveProgress(trx, this.row.id, deps.owner, progress);
      if (!held || !(await renewLease(trx, this.row.id, deps.owner, this.leaseMs)))
        throw new PassEnded('lease');
      this.row = held;
    });
    collectorMetrics.imported(copied);
    return events;
  }

  /** CONDSTORE: the flags changed remotely since the last pass, onto the copies (seen and flagged, both ways). */
  private async syncFlags(
    client: ImapFlow,
    cf: CollectorFolderRow,
    uidvalidity: number,
    lastUid: number,
    since: bigint,
  ): Promise<void> {
    const { deps } = this;
    const changed = await client.fetchAll(
      `1:${lastUid}`,
      { uid: true, flags: true },
      { uid: true, changedSince: since },
    );
    stillConnected(client);
    for (let i = 0; i < changed.length; i += 500) {
      const chunk = changed.slice(i, i + 500);
      const ids = await copiedMessageIds(
        deps.db,
        cf.id,
        uidvalidity,
        chunk.map((m) => m.uid),
      );
      const wanted = new Map(chunk.map((m) => [ids.get(m.uid), importedFlags(m.flags)]));
      const places = await messagePlaces(deps.db, this.accountId, [...ids.values()]);
      const marks = new Map<
        string,
        { flag: 'seen' | 'unseen' | 'flagged' | 'unflagged'; folder: number; uids: number[] }
      >();
      const add = (flag: 'seen' | 'unseen' | 'flagged' | 'unflagged', folder: number, uid: number) => {
        const key = `${flag}:${folder}`;
        const entry = marks.get(key) ?? { flag, folder, uids: [] };
        entry.uids.push(uid);
        marks.set(key, entry);
      };
      for (const place of places) {
        const flags = wanted.get(place.id);
        if (!flags) continue;
        if (flags.seen !== place.seen) add(flags.seen ? 'seen' : 'unseen', place.folder_id, place.uid);
        if (flags.flagged !== place.flagged)
          add(flags.flagged ? 'flagged' : 'unflagged', place.folder_id, place.uid);
      }
      for (const { flag, folder, uids } of marks.values()) {
        const outcome = await markMessages(deps.db, this.accountId, {
          flag,
          folder_messages: [{ folder_id: folder, message_uids: uids }],
        });
        await emit(deps.db, deps, this.accountId, outcome.events);
      }
    }
  }
}

/** One `new` event per folder with all its UIDs, and the latest counters of each folder. */
function mergeEvents(events: MailEvent[]): MailEvent[] {
  const added = new Map<number, number[]>();
  const counters = new Map<number, MailEvent>();
  const other: MailEvent[] = [];
  for (const e of events) {
    if (e.event === 'new') added.set(e.folder_id, [...(added.get(e.folder_id) ?? []), ...e.uids]);
    else if (e.event === 'updateMailbox') counters.set(e.folder_id, e);
    else other.push(e);
  }
  return [
    ...[...added].map(([folder_id, uids]) => ({ event: 'new' as const, folder_id, uids })),
    ...counters.values(),
    ...other,
  ];
}

/** Throws the way a dropped connection does when the connection is no longer usable. */
function stillConnected(client: ImapFlow): void {
  if (!client.usable)
    throw Object.assign(new Error('the connection to the mail server closed'), { code: 'EConnectionClosed' });
}

function hasFlag(flags: Set<string> | undefined, flag: string): boolean {
  return [...(flags ?? [])].some((f) => f.toLowerCase() === flag.toLowerCase());
}

async function closeQuietly(client: ImapFlow): Promise<void> {
  try {
    if (client.usable) await Promise.race([client.logout(), new Promise((r) => setTimeout(r, 2000).unref())]);
  } catch {
    // the connection is gone already
  }
  client.close();
}

const stopNotice = {
  en: (email: string) => ({
    subject: `Mail from ${email} is no longer being collected`,
    text: `The mail server of ${email} refused the saved password several times in a row, so collecting its mail has stopped. Enter the current password (or an app password) in Settings → Collectors to start again.`,
  }),
  ru: (email: string) => ({
    subject: `Сбор почты из ${email} остановлен`,
    text: `Почтовый сервер ${email} несколько раз подряд не принял сохранённый пароль, поэтому сбор почты из этого ящика остановлен. Введите действующий пароль (или пароль приложения) в разделе Настройки → Сборщики, чтобы возобновить его.`,
  }),
};
