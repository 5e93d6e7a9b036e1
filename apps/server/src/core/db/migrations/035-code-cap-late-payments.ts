import { sql, type Kysely } from 'kysely';

/**
 * Two changes of issue 28, under the one number it was given.
 *
 * A daily cap on mailbox-password codes (issue 28 item 12). Five wrong tries per code and one code a minute still left
 * 7,200 guesses a day; `day_started_at` and `day_codes` count the codes asked for in the 24 hours from the first, and
 * `locked_until` is set when the last one allowed (PASSWORD_CODES_PER_DAY) is given: no code until then.
 *
 * A late payment (item 13): a 'paid' reported for an invoice we settled as expired, cancelled or rejected is honoured —
 * what it paid for is delivered when it still can be (status 'paid'), else the money goes back: 'refund_due' until the
 * wallet confirmed the refund, then 'refunded' (ledger source 'refund'). The sandbox wallet's invoices can be refunded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table password_codes add column day_started_at timestamptz;
    alter table password_codes add column day_codes integer not null default 0;
    alter table password_codes add column locked_until timestamptz;

    alter table invoices drop constraint invoices_status_check;
    alter table invoices add constraint invoices_status_check
      check (status in ('unpaid', 'paid', 'rejected', 'expired', 'cancelled', 'refund_due', 'refunded'));
    create index invoices_refund_due on invoices (id) where status = 'refund_due';
    alter table invoice_ledger drop constraint invoice_ledger_source_check;
    alter table invoice_ledger add constraint invoice_ledger_source_check
      check (source in ('check', 'webhook', 'reconcile', 'cancel', 'sandbox', 'refund'));
    alter table sandbox_wallet_invoices drop constraint sandbox_wallet_invoices_status_check;
    alter table sandbox_wallet_invoices add constraint sandbox_wallet_invoices_status_check
      check (status in ('unpaid', 'paid', 'rejected', 'expired', 'cancelled', 'refunded'));
  `.execute(db);
}
