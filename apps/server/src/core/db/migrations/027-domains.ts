import { sql, type Kysely } from 'kysely';

/**
 * Own domains, addresses on them, their DKIM keys and delegation (issue 17), owned by addresses/.
 *
 * domains: a domain an account added (kind 'own'), or one of the service's public domains on which members take paid
 * addresses (kind 'public', account_id null, from PUBLIC_DOMAINS). name: ASCII, lowercased (an IDN in punycode);
 * display_name: as people write it. status (SPEC §4): prepared (added), waiting (a verification running), processing
 * (a re-check of a verified domain running), failed (failure_reason, failure_found: what was seen instead), succeed
 * (verified: it hosts mail), unpaid/paying (a paid domain's invoice). token: what the TXT record or meta tag must carry.
 * method: the way of the last confirm. unverified_since: a verified domain whose proof has gone missing at a re-check
 * (failed after 7 days). A domain is never removed as a row (its addresses' mail points at them): deleted_at.
 * Names: unique per account while not deleted; across the service only one account holds it verified — claims that
 * are not verified do not block the real owner.
 *
 * aliases gain kind 'domain' (an address on a domain, domain_id) and status 'prepared' (made, not receiving until its
 * confirm found the domain's MX pointing here): every address of an account besides the primary one is an aliases row,
 * so messages.alias_id, the scopes, password access and the sidebar's address list treat them alike.
 * domains.catch_all_alias_id: the address that receives mail to unknown names on the domain.
 *
 * domain_dkim_keys: each domain's signing keys, RSA-2048 and Ed25519 made together on a dated selector; state next
 * (published, not signing yet: a rotation), active (signs), retiring (kept published until retire_at). private_key:
 * encrypted with a key derived from SECRET_KEY. public_key: base64 of what the TXT record's p= carries.
 *
 * delegations: an address its owner lets another member read and send as (one delegate per address).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table domains (
      id bigserial primary key,
      account_id bigint references accounts (id) on delete cascade,
      kind text not null default 'own' check (kind in ('own', 'public')),
      name text not null,
      display_name text not null,
      status text not null default 'prepared'
        check (status in ('prepared', 'waiting', 'processing', 'failed', 'succeed', 'unpaid', 'paying')),
      paid boolean not null default false,
      invoice_id bigint references invoices (id),
      token text not null,
      method text check (method in ('dns', 'meta')),
      failure_reason text,
      failure_found text,
      verified_at timestamptz,
      checked_at timestamptz,
      unverified_since timestamptz,
      catch_all_alias_id bigint,
      deleted_at timestamptz,
      created_at timestamptz not null default now(),
      check ((kind = 'public') = (account_id is null))
    );
    create unique index domains_account_name on domains (account_id, name) where deleted_at is null;
    create unique index domains_verified_name on domains (name)
      where deleted_at is null and (status = 'succeed' or kind = 'public');
    create index domains_name on domains (name) where deleted_at is null;
    create unique index domains_invoice on domains (invoice_id) where invoice_id is not null;

    alter table aliases drop constraint aliases_kind_check;
    alter table aliases add constraint aliases_kind_check check (kind in ('free', 'paid', 'domain'));
    alter table aliases drop constraint aliases_status_check;
    alter table aliases add constraint aliases_status_check
      check (status in ('prepared', 'unpaid', 'paying', 'succeed', 'failed'));
    alter table aliases add column domain_id bigint references domains (id);
    alter table aliases add constraint aliases_domain_kind check ((kind = 'domain') = (domain_id is not null));
    create index aliases_domain on aliases (domain_id) where domain_id is not null and deleted_at is null;
    alter table domains add constraint domains_catch_all foreign key (catch_all_alias_id) references aliases (id);

    create table domain_dkim_keys (
      id bigserial primary key,
      domain_id bigint not null references domains (id) on delete cascade,
      selector text not null,
      algorithm text not null check (algorithm in ('rsa', 'ed25519')),
      state text not null check (state in ('next', 'active', 'retiring')),
      private_key text not null,
      public_key text not null,
      created_at timestamptz not null default now(),
      retire_at timestamptz,
      unique (domain_id, selector)
    );

    create table delegations (
      alias_id bigint primary key references aliases (id) on delete cascade,
      delegate_account_id bigint not null references accounts (id) on delete cascade,
      created_at timestamptz not null default now()
    );
    create index delegations_delegate on delegations (delegate_account_id);
  `.execute(db);
}
