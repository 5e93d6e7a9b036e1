import type { Db, InvoiceChangeSource, InvoiceStatus, Trx } from '../core/db/index.js';

/** Our record of an invoice issued at the wallet (table `invoices`). */
export interface InvoiceRow {
  id: number;
  account_id: number;
  /** What it pays for: 'alias', 'domain', … (a registered purpose). */
  purpose: string;
  /** The row it pays for (the alias's id for 'alias'). */
  subject_id: number;
  /** The wallet's id of it. */
  wallet_invoice_id: string;
  idempotency_key: string;
  amount: string;
  currency: string;
  status: InvoiceStatus;
  pay_url: string;
  created_at: Date;
  settled_at: Date | null;
}

/** A row of the append-only ledger (table `invoice_ledger`). */
export interface InvoiceLedgerRow {
  id: number;
  invoice_id: number;
  from_status: InvoiceStatus;
  to_status: InvoiceStatus;
  source: InvoiceChangeSource;
  event_id: string | null;
  at: Date;
}

/** Which invoice: ours by id, or the wallet's id of it. */
export type InvoiceRef = { invoiceId: number } | { walletInvoiceId: string };

const columns = [
  'id',
  'account_id',
  'purpose',
  'subject_id',
  'wallet_invoice_id',
  'idempotency_key',
  'amount',
  'currency',
  'status',
  'pay_url',
  'created_at',
  'settled_at',
] as const;

/** The invoice by our id or the wallet's. */
function invoiceBy(db: Db, ref: InvoiceRef) {
  const query = db.selectFrom('invoices').select(columns);
  return 'invoiceId' in ref
    ? query.where('id', '=', ref.invoiceId)
    : query.where('wallet_invoice_id', '=', ref.walletInvoiceId);
}

export async function findInvoice(db: Db, ref: InvoiceRef): Promise<InvoiceRow | undefined> {
  return invoiceBy(db, ref).executeTakeFirst();
}

export async function findInvoiceByKey(db: Db, idempotencyKey: string): Promise<InvoiceRow | undefined> {
  return db
    .selectFrom('invoices')
    .select(columns)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/** The invoices issued for one subject (an alias), oldest first. */
export function invoicesForSubject(db: Db, purpose: string, subjectId: number): Promise<InvoiceRow[]> {
  return invoicesForSubjects(db, purpose, [subjectId]);
}

/** The invoices issued for several subjects of one purpose in one query, oldest first. */
export async function invoicesForSubjects(
  db: Db,
  purpose: string,
  subjectIds: readonly number[],
): Promise<InvoiceRow[]> {
  if (subjectIds.length === 0) return [];
  return db
    .selectFrom('invoices')
    .select(columns)
    .where('purpose', '=', purpose)
    .where('subject_id', 'in', subjectIds)
    .orderBy('id')
    .execute();
}

/** The invoice, its row locked until the transaction ends (every change of its status takes this lock first). */
export async function lockInvoice(trx: Trx, ref: InvoiceRef): Promise<InvoiceRow | undefined> {
  return invoiceBy(trx, ref).forUpdate().executeTakeFirst();
}

/** Stores the invoice unless one with its idempotency key exists; either way answers the stored one. */
export async function insertInvoice(
  db: Db,
  values: Omit<InvoiceRow, 'id' | 'status' | 'created_at' | 'settled_at'>,
): Promise<InvoiceRow> {
  await db
    .insertInto('invoices')
    .values(values)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  const row = await findInvoiceByKey(db, values.idempotency_key);
  if (!row) throw new Error(`invoice ${values.idempotency_key} vanished after its insert`);
  return row;
}

/** Sets the locked invoice's new status (settled now) and appends the change to the ledger. */
export async function recordInvoiceChange(
  trx: Trx,
  invoice: InvoiceRow,
  change: { status: InvoiceStatus; source: InvoiceChangeSource; eventId: string | null },
): Promise<InvoiceRow> {
  const row = await trx
    .updateTable('invoices')
    .set({ status: change.status, settled_at: new Date() })
    .where('id', '=', invoice.id)
    .returning(columns)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('invoice_ledger')
    .values({
      invoice_id: invoice.id,
      from_status: invoice.status,
      to_status: change.status,
      source: change.source,
      event_id: change.eventId,
    })
    .execute();
  return row;
}

/** Whether a change with this webhook event id is in the ledger already (the same event delivered again). */
export async function ledgerHasEvent(db: Db, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('invoice_ledger')
    .select('id')
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The invoice's ledger, oldest first. */
export async function invoiceLedger(db: Db, invoiceId: number): Promise<InvoiceLedgerRow[]> {
  return db
    .selectFrom('invoice_ledger')
    .select(['id', 'invoice_id', 'from_status', 'to_status', 'source', 'event_id', 'at'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('id')
    .execute();
}

/** Unpaid invoices created before `before`, oldest first (the reconciliation job's work). */
/** Late payments waiting for their refund (status refund_due), oldest first. */
export async function refundDueInvoices(db: Db, limit: number): Promise<InvoiceRow[]> {
  return db
    .selectFrom('invoices')
    .select(columns)
    .where('status', '=', 'refund_due')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function unpaidInvoicesBefore(db: Db, before: Date, limit: number): Promise<InvoiceRow[]> {
  return db
    .selectFrom('invoices')
    .select(columns)
    .where('status', '=', 'unpaid')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}
