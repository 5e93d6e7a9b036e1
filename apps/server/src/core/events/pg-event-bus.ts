import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { accountParts, type MailEvent } from '@mailroom/protocol';
import {
  InProcessEventBus,
  type EventBus,
  type EventHandler,
  type SessionEndedHandler,
} from './event-bus.js';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; stay well clear of it. */
export const NOTIFY_PAYLOAD_LIMIT = 7500;
export const DEFAULT_CHANNEL = 'mailroom_events';

interface Notice {
  /** The publishing process: it has already delivered to its own subscribers. */
  origin: string;
  accountId: number;
  event: MailEvent;
  /**
   * Counts this process's notifications. PostgreSQL drops a notification identical to one already
   * sent in the same transaction, and one statement carries a batch of them: two equal events
   * apart (unseen 5, 6, then 5 again) must both arrive.
   */
  seq: number;
}

/** A session that ended: every process closes what it holds open for it. */
interface SessionNotice {
  origin: string;
  endedSession: string;
  seq: number;
}

export interface EventBusLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PgEventBusOptions {
  connectionString: string;
  channel?: string;
  log?: EventBusLogger;
  /** First and largest pause before listening again after the connection is lost. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

/**
 * Events shared by every server process on one PostgreSQL: publish is a pg_notify per event,
 * and each process LISTENs on its own connection and hands notifications to its own
 * subscribers of that account. The publisher delivers locally at once (no round trip, and
 * still working while the listener reconnects) and skips its own notifications when they
 * come back.
 */
export class PgEventBus implements EventBus {
  private readonly local = new InProcessEventBus();
  private readonly origin = randomUUID();
  private readonly channel: string;
  /** Publishing has its own tiny pool so a busy request pool cannot hold events back. */
  private readonly pool: pg.Pool;
  private listener: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay: number;
  private closed = false;
  /** Payloads gathering for the next pg_notify, and the promise of their sending. */
  private batch: { payloads: string[]; sent: Promise<void> } | undefined;
  private lastSent: Promise<unknown> = Promise.resolve();
  private seq = 0;

  private constructor(private readonly options: PgEventBusOptions) {
    this.channel = options.channel ?? DEFAULT_CHANNEL;
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.channel)) throw new Error(`bad channel name ${this.channel}`);
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: 2 });
    this.pool.on('error', (err) => this.options.log?.warn({ err }, 'event bus publish connection failed'));
    this.reconnectDelay = options.reconnectMinMs ?? 250;
  }

  /** Connects the listener; fails when PostgreSQL cannot be reached at start-up. */
  static async connect(options: PgEventBusOptions): Promise<PgEventBus> {
    const bus = new PgEventBus(options);
    await bus.listen();
    return bus;
  }

  async publish(accountId: number, events: MailEvent[]): Promise<void> {
    for (const event of events) this.local.deliver(accountId, event);
    return this.notify(
      events
        .flatMap((event) => splitForNotify(event))
        .map((event) =>
          JSON.stringify({ origin: this.origin, accountId, event, seq: this.seq++ } satisfies Notice),
        ),
    );
  }

  async endSession(sessionId: string): Promise<void> {
    this.local.sessionEnded(sessionId);
    return this.notify([
      JSON.stringify({
        origin: this.origin,
        endedSession: sessionId,
        seq: this.seq++,
      } satisfies SessionNotice),
    ]);
  }

  onSessionEnded(handler: SessionEndedHandler): () => void {
    return this.local.onSessionEnded(handler);
  }

  private async notify(payloads: string[]): Promise<void> {
    if (payloads.length === 0) return;
    if (this.batch) {
      this.batch.payloads.push(...payloads);
      return this.batch.sent;
    }
    // One pg_notify statement at a time: what is published while one is out (or in the same tick)
    // goes in the next, so a busy ingest costs a round trip per batch, not per message, and
    // notifications leave in publishing order. unnest yields, and PostgreSQL delivers, them in order.
    const batch = { payloads: [...payloads], sent: Promise.resolve() };
    batch.sent = this.lastSent.then(async () => {
      if (this.batch === batch) this.batch = undefined;
      await this.pool.query('select pg_notify($1, p) from unnest($2::text[]) as p', [
        this.channel,
        batch.payloads,
      ]);
    });
    this.batch = batch;
    this.lastSent = batch.sent.catch(() => undefined);
    return batch.sent;
  }

  subscribe(accountId: number, handler: EventHandler): () => void {
    return this.local.subscribe(accountId, handler);
  }

  eventsSince(accountId: number, since: number, until?: number): MailEvent[] | null {
    return this.local.eventsSince(accountId, since, until);
  }

  /** True while notifications from other processes can arrive. */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool.end();
    await this.local.close();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      // A silently dropped connection would leave us deaf; TCP keep-alive notices it.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.options.log?.warn({ err }, 'event bus listener lost; reconnecting');
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => {
      if (msg.channel === this.channel && msg.payload) this.receive(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  private scheduleReconnect(): void {
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, this.options.reconnectMaxMs ?? 10_000);
    this.reconnectTimer = setTimeout(() => {
      this.listen().then(
        () => {
          if (this.closed) return;
          this.reconnectDelay = this.options.reconnectMinMs ?? 250;
          this.options.log?.info({}, 'event bus listener reconnected');
          // Notifications sent while we were away are gone: tell our clients to reload what they show, and
          // vouch for nothing before now to a client catching up.
          this.local.recent.forgetBefore();
          for (const accountId of this.local.accounts())
            this.local.deliver(accountId, { event: 'updateMailboxList' });
        },
        (err: unknown) => {
          if (this.closed) return;
          this.options.log?.warn({ err }, 'event bus listener reconnect failed');
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref();
  }

  private receive(payload: string): void {
    let notice: Partial<Notice & SessionNotice>;
    try {
      notice = JSON.parse(payload) as Partial<Notice & SessionNotice>;
    } catch {
      return;
    }
    if (typeof notice !== 'object' || notice === null || notice.origin === this.origin) return;
    // Anyone with access to the database could NOTIFY; deliver only well-formed notices.
    if (typeof notice.endedSession === 'string') {
      this.local.sessionEnded(notice.endedSession);
      return;
    }
    if (!Number.isSafeInteger(notice.accountId) || !isMailEvent(notice.event)) return;
    this.local.deliver(notice.accountId!, notice.event);
  }
}

type EventFields = Record<string, unknown>;
const safeIds = (value: unknown) => Array.isArray(value) && value.every((u) => Number.isSafeInteger(u));
const hasId = (value: unknown) =>
  typeof value === 'object' && value !== null && Number.isSafeInteger((value as EventFields).id);

/**
 * What a well-formed notice of each kind of event holds. A Record over every kind, so that a kind added to the
 * protocol does not compile until it is said here: one missing was dropped by every other node (a send cancelled in
 * one tab left another tab's Sending… box open when the tabs were served by different processes).
 */
const wellFormed: Record<MailEvent['event'], (e: EventFields) => boolean> = {
  new: (e) => Number.isSafeInteger(e.folder_id) && safeIds(e.uids),
  store: (e) => Number.isSafeInteger(e.folder_id) && safeIds(e.uids),
  move: (e) =>
    Number.isSafeInteger(e.folder_id) &&
    (e.to_folder_id === null || Number.isSafeInteger(e.to_folder_id)) &&
    safeIds(e.uids),
  updateMailbox: (e) =>
    Number.isSafeInteger(e.folder_id) && Number.isSafeInteger(e.unseen) && Number.isSafeInteger(e.total),
  updateMailboxList: () => true,
  filterRun: (e) => hasId(e.run),
  contactImport: (e) => hasId(e.import),
  // A mail import's progress, once per batch (issue 33).
  mailImport: (e) => hasId(e.import),
  // A collector's import progress, published by the process running the import (issue 18).
  collector: (e) => hasId(e.collector),
  // A held or scheduled send waiting, sent or cancelled (issue 31).
  scheduledSend: (e) =>
    Number.isSafeInteger(e.id) && (e.state === 'waiting' || e.state === 'sent' || e.state === 'cancelled'),
  updateAccount: (e) => typeof e.part === 'string' && (accountParts as readonly string[]).includes(e.part),
};

export function isMailEvent(value: unknown): value is MailEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as EventFields;
  return typeof e.event === 'string' && Object.hasOwn(wellFormed, e.event)
    ? wellFormed[e.event as MailEvent['event']](e)
    : false;
}

/**
 * Splits an event whose uid list would not fit one notification into several events over
 * consecutive parts of the list; a client treats each part like the whole.
 */
export function splitForNotify(event: MailEvent, limit = NOTIFY_PAYLOAD_LIMIT): MailEvent[] {
  // The envelope ({origin, accountId}) adds ~90 bytes; keep room for it.
  if (!('uids' in event) || JSON.stringify(event).length <= limit - 200) return [event];
  if (event.uids.length <= 1) return [event];
  const half = Math.ceil(event.uids.length / 2);
  return [
    ...splitForNotify({ ...event, uids: event.uids.slice(0, half) }, limit),
    ...splitForNotify({ ...event, uids: event.uids.slice(half) }, limit),
  ];
}
