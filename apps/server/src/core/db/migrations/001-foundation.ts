import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table accounts (
      id bigint generated always as identity primary key,
      member_id text not null unique check (member_id ~ '^[0-9]{12}$'),
      name text not null default '',
      email text not null unique,
      settings jsonb not null,
      quota_limit_bytes bigint not null,
      quota_used_bytes bigint not null default 0,
      created_at timestamptz not null default now()
    );

    create table profiles (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      name text not null,
      email text not null,
      signature text not null default '',
      is_default boolean not null default false,
      created_at timestamptz not null default now()
    );
    create index profiles_account on profiles (account_id);
    create unique index profiles_one_default on profiles (account_id) where is_default;

    create table aliases (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      email text not null unique,
      created_at timestamptz not null default now()
    );
    create index aliases_account on aliases (account_id);

    create table folders (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      name text not null,
      system text check (system in ('inbox', 'sent', 'draft', 'trash', 'junk')),
      uidvalidity integer not null,
      uidnext integer not null default 1,
      unread_count integer not null default 0,
      total_count integer not null default 0,
      created_at timestamptz not null default now(),
      unique (account_id, name)
    );
    create unique index folders_one_per_system on folders (account_id, system) where system is not null;

    create table sessions (
      id text primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      alias_email text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      last_seen_at timestamptz not null default now()
    );
    create index sessions_account on sessions (account_id);
    create index sessions_expires on sessions (expires_at);

    create table password_accesses (
      email text primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      password_hash text not null,
      created_at timestamptz not null default now()
    );

    create table idp_users (
      member_id text primary key check (member_id ~ '^[0-9]{12}$'),
      name text not null,
      password_hash text not null,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}
