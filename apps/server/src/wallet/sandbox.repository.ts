import type { Db, SandboxInvoiceStatus } from '../core/db/index.js';

/** An invoice as the sandbox wallet keeps it (table `sandbox_wallet_invoices`). */
export interface SandboxInvoiceRow {
  id: string;
  member_id: string;
  amount: string;
  currency: string;
  description: string;
  status: SandboxInvoiceStatus;
  idempotency_key: string;
  created_at: Date;
  updated_at: Date;
}

export interface SandboxNoticeRow {
  id: number;
  member_id: string;
  kind: string;
  title: string;
  text: string;
  at: Date;
}

const columns = [
  'id',
  'member_id',
  'amount',
  'currency',
  'description',
  'status',
  'idempotency_key',
  'created_at',
  'updated_at',
] as const;

/** Stores the invoice unless its idempotency key is taken; answers the invoice of that key. */
export async function insertSandboxInvoice(
  db: Db,
  values: Pick<
    SandboxInvoiceRow,
    'id' | 'member_id' | 'amount' | 'currency' | 'description' | 'idempotency_key'
  >,
): Promise<SandboxInvoiceRow> {
  await db
    .insertInto('sandbox_wallet_invoices')
    .values(values)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  return db
    .selectFrom('sandbox_wallet_invoices')
    .select(columns)
    .where('idempotency_key', '=', values.idempotency_key)
    .executeTakeFirstOrThrow();
}

export async function findSandboxInvoice(db: Db, id: string): Promise<SandboxInvoiceRow | undefined> {
  return db.selectFrom('sandbox_wallet_invoices').select(columns).where('id', '=', id).executeTakeFirst();
}

/**
 * Moves an unpaid invoice to `status` (one statement: of two payers at once one wins); answers the invoice as it is
 * afterwards and whether this call changed it.
 */
export async function settleSandboxInvoice(
  db: Db,
  id: string,
  status: Exclude<SandboxInvoiceStatus, 'unpaid'>,
): Promise<{ invoice: SandboxInvoiceRow; changed: boolean } | undefined> {
  const changed = await db
    .updateTable('sandbox_wallet_invoices')
    .set({ status, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'unpaid')
    .returning(columns)
    .executeTakeFirst();
  if (changed) return { invoice: changed, changed: true };
  const invoice = await findSandboxInvoice(db, id);
  return invoice && { invoice, changed: false };
}

/** Pays a paid invoice back (one statement: a refund happens once); the invoice as it is afterwards. */
export async function refundSandboxInvoice(db: Db, id: string): Promise<SandboxInvoiceRow | undefined> {
  const refunded = await db
    .updateTable('sandbox_wallet_invoices')
    .set({ status: 'refunded', updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'paid')
    .returning(columns)
    .executeTakeFirst();
  return refunded ?? findSandboxInvoice(db, id);
}

/** The member's invoices, newest first. */
export async function sandboxInvoicesOf(db: Db, memberId: string, limit = 50): Promise<SandboxInvoiceRow[]> {
  return db
    .selectFrom('sandbox_wallet_invoices')
    .select(columns)
    .where('member_id', '=', memberId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function insertSandboxNotice(
  db: Db,
  values: Pick<SandboxNoticeRow, 'member_id' | 'kind' | 'title' | 'text'>,
): Promise<void> {
  await db.insertInto('sandbox_wallet_notices').values(values).execute();
}

/** The member's notices, newest first. */
export async function sandboxNoticesOf(db: Db, memberId: string, limit = 50): Promise<SandboxNoticeRow[]> {
  return db
    .selectFrom('sandbox_wallet_notices')
    .select(['id', 'member_id', 'kind', 'title', 'text', 'at'])
    .where('member_id', '=', memberId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
