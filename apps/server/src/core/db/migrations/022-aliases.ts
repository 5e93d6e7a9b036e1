import { sql, type Kysely } from 'kysely';

/**
 * Aliases free and paid (issue 16), owned by addresses/; the passport level of accounts/.
 *
 * aliases.kind: free (one per account) or paid (PAID_ALIAS_PRICE each). aliases.status (SPEC §4): unpaid (its invoice
 * issued, the name held), paying (the payment being checked), succeed (active: it receives mail and may send),
 * failed (the invoice rejected or expired: the name free again). aliases.invoice_id: the invoice of a paid alias
 * (wallet/'s `invoices`). aliases.deleted_at: an alias is never removed as a row, because the mail it received points at it
 * (messages.alias_id) and stays in the mailbox, still told apart from the mail to the primary address (a session held
 * to the primary address must not see it); a deleted alias receives nothing, lists nowhere, signs in nowhere.
 *
 * A name is taken while an alias holds it that is not deleted and not failed: unique case-insensitively across the
 * service (the old plain unique constraint on email went: a deleted or failed alias must not keep its name). One free
 * alias per account and one paid alias on its way (unpaid or paying) at a time, held by the database so two requests
 * (or two processes) cannot both pass the check.
 *
 * alias_access_changes: when an alias's password access was set or removed, so a sixth change within an hour is
 * refused (alias_access_limit) whichever process serves it.
 *
 * accounts.passport_level: the identity check the provider reports for the member (OIDC_PASSPORT_LEVEL_CLAIM), stored
 * at each sign-in. idp_users.passport_level: what a member of the embedded development provider picked at sign-up;
 * 'formal' for its members made before (and by `mailroom user add`), the level its sign-up page offers first, so trying
 * the service out includes aliases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table aliases
      add column kind text not null default 'free' check (kind in ('free', 'paid')),
      add column status text not null default 'succeed' check (status in ('unpaid', 'paying', 'succeed', 'failed')),
      add column invoice_id bigint references invoices (id),
      add column deleted_at timestamptz;
    alter table aliases drop constraint if exists aliases_email_key;
    -- Aliases made before kinds existed (by an operator): the oldest of an account is its free one.
    update aliases set kind = 'paid' where id not in (select min(id) from aliases group by account_id);
    drop index if exists aliases_email_lower;
    create unique index aliases_taken_email on aliases (lower(email))
      where deleted_at is null and status <> 'failed';
    create unique index aliases_one_free on aliases (account_id)
      where kind = 'free' and deleted_at is null and status <> 'failed';
    create unique index aliases_one_paying on aliases (account_id)
      where kind = 'paid' and deleted_at is null and status in ('unpaid', 'paying');
    create unique index aliases_invoice on aliases (invoice_id) where invoice_id is not null;

    create table alias_access_changes (
      alias_id bigint not null references aliases (id) on delete cascade,
      changed_at timestamptz not null default now()
    );
    create index alias_access_changes_alias on alias_access_changes (alias_id, changed_at);

    alter table accounts add column passport_level text not null default 'none'
      check (passport_level in ('none', 'formal', 'verified', 'full'));
    alter table idp_users add column passport_level text not null default 'formal'
      check (passport_level in ('none', 'formal', 'verified', 'full'));
  `.execute(db);
}
