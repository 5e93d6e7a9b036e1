import { sql, type Kysely } from 'kysely';

/**
 * The account's security (issue 16).
 *
 * accounts.first_name / last_name: the member's names as set in settings/security (the display name becomes
 * "first last"); empty until set.
 * sessions.actor_account_id: set on a session that opened another member's mailbox (impersonation): account_id is
 * the mailbox's owner, the actor the member really signed in. Revoking a grant deletes these rows.
 * auth_log: every sign-in and failed attempt of an account (auth/): when, from where (IP, user agent), how
 * (sso, password, impersonation), whether it succeeded, the address signed in as, and for impersonation the other
 * member. Kept AUTH_LOG_DAYS, swept by a recurring job.
 * access_grants: a member ID the owner lets open the whole mailbox (kind 'mailbox') or act for the owner's bank
 * accounts (kind 'ba'); one row per owner, grantee and kind.
 * password_codes: the confirmation codes of the mailbox password (only their hash), one live code per account:
 * a new one replaces it. Expiry, single use and the count of wrong tries on the row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table accounts add column first_name text not null default '';
    alter table accounts add column last_name text not null default '';
    alter table sessions add column actor_account_id bigint references accounts (id) on delete cascade;
    create index sessions_actor_account_id on sessions (actor_account_id) where actor_account_id is not null;
    create table auth_log (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      at timestamptz not null default now(),
      ip text not null,
      user_agent text not null,
      method text not null check (method in ('sso', 'password', 'impersonation')),
      success boolean not null,
      address text,
      member_id text
    );
    create index auth_log_account_at on auth_log (account_id, at desc, id desc);
    create index auth_log_at on auth_log (at);
    create table access_grants (
      account_id bigint not null references accounts (id) on delete cascade,
      member_id text not null check (member_id ~ '^[0-9]{12}$'),
      kind text not null check (kind in ('mailbox', 'ba')),
      granted_at timestamptz not null default now(),
      primary key (account_id, kind, member_id)
    );
    create index access_grants_member on access_grants (member_id, kind);
    create table password_codes (
      account_id bigint primary key references accounts (id) on delete cascade,
      purpose text not null check (purpose in ('new', 'change')),
      code_hash text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      attempts integer not null default 0,
      used_at timestamptz
    );
  `.execute(db);
}
