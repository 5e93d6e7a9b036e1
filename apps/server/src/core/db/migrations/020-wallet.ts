import { sql, type Kysely } from 'kysely';

/**
 * The provider's wallet (issue 16), owned by the wallet area.
 *
 * invoices: our record of every invoice issued at the wallet: what it pays for (`purpose`, e.g. 'alias' or 'domain',
 * and `subject_id`, the row it pays for, e.g. the alias's id), the wallet's id of it, the idempotency key it was
 * created with (derived from purpose and subject, so a retry reuses the invoice), the amount as a decimal string, its
 * status and, once settled, when. Only `settleInvoice` (wallet/invoices.service.ts) changes `status`, under the row's
 * lock, and only away from 'unpaid': a settled invoice never changes again. Kept when the account goes (money records
 * stay), so accounts are never deleted while an invoice names them.
 *
 * invoice_ledger: every change of an invoice's status, appended in the same transaction as the change; a trigger
 * refuses UPDATE, DELETE and TRUNCATE, so the history cannot be rewritten by mistake. `event_id` is the webhook event
 * that made the change, unique when set, so the same event delivered again is recognised.
 *
 * sandbox_wallet_invoices and sandbox_wallet_notices: the embedded sandbox wallet's own state (the default when no
 * WALLET_API_URL is set): the invoices as the wallet sees them, and the notices sent to members' wallet applications
 * (new mail, confirmation codes), which the sandbox page shows. The sandbox's bank accounts are derived from the member
 * ID (wallet/sandbox-gateway.ts), no table.
 *
 * wallet_mail_notices: per account, when the wallet application was last told of new mail (the batching job).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table invoices (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id),
      purpose text not null,
      subject_id bigint not null,
      wallet_invoice_id text not null unique,
      idempotency_key text not null unique,
      amount text not null check (amount ~ '^[0-9]{1,12}(\\.[0-9]{1,8})?$'),
      currency text not null,
      status text not null default 'unpaid'
        check (status in ('unpaid', 'paid', 'rejected', 'expired', 'cancelled')),
      pay_url text not null,
      created_at timestamptz not null default now(),
      settled_at timestamptz,
      check ((status = 'unpaid') = (settled_at is null))
    );
    create index invoices_account on invoices (account_id, id);
    create index invoices_subject on invoices (purpose, subject_id);
    create index invoices_unpaid on invoices (created_at) where status = 'unpaid';

    create table invoice_ledger (
      id bigint generated always as identity primary key,
      invoice_id bigint not null references invoices (id),
      from_status text not null,
      to_status text not null,
      source text not null check (source in ('check', 'webhook', 'reconcile', 'cancel', 'sandbox')),
      event_id text unique,
      at timestamptz not null default now()
    );
    create index invoice_ledger_invoice on invoice_ledger (invoice_id, id);

    create function invoice_ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'invoice_ledger is append-only (% refused)', tg_op using errcode = 'restrict_violation';
    end
    $$;
    create trigger invoice_ledger_no_update before update or delete on invoice_ledger
      for each row execute function invoice_ledger_append_only();
    create trigger invoice_ledger_no_truncate before truncate on invoice_ledger
      for each statement execute function invoice_ledger_append_only();

    create table sandbox_wallet_invoices (
      id text primary key,
      member_id text not null,
      amount text not null,
      currency text not null,
      description text not null,
      status text not null default 'unpaid'
        check (status in ('unpaid', 'paid', 'rejected', 'expired', 'cancelled')),
      idempotency_key text not null unique,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index sandbox_wallet_invoices_member on sandbox_wallet_invoices (member_id, created_at);

    create table sandbox_wallet_notices (
      id bigint generated always as identity primary key,
      member_id text not null,
      kind text not null,
      title text not null,
      text text not null,
      at timestamptz not null default now()
    );
    create index sandbox_wallet_notices_member on sandbox_wallet_notices (member_id, id);

    create table wallet_mail_notices (
      account_id bigint primary key references accounts (id) on delete cascade,
      last_notified_at timestamptz not null
    );
  `.execute(db);
}
