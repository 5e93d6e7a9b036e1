import { sql, type Kysely } from 'kysely';

/**
 * Sending. `compose_uploads`: files attached in the compose window before the message exists
 * (bytes are blobs; a forward or reopened draft points at the same blobs). `outbox`: one row per
 * recipient of a sent message, the durable queue the outbox job works through (claimed with
 * FOR UPDATE SKIP LOCKED, so several processes may run it). `dkim_keys`: a signing key per
 * domain of ours; the domains area creates them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table compose_uploads (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      blob_hash text not null,
      name text not null,
      content_type text not null,
      size bigint not null,
      created_at timestamptz not null default now(),
      touched_at timestamptz not null default now()
    );
    create index compose_uploads_account on compose_uploads (account_id, touched_at);
    create index compose_uploads_touched on compose_uploads (touched_at);

    create table outbox (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      blob_hash text not null,
      size bigint not null,
      message_id text,
      envelope_from text not null,
      recipient text not null,
      local boolean not null default false,
      status text not null default 'queued' check (status in ('queued', 'sent', 'bounced')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_error text,
      created_at timestamptz not null default now(),
      done_at timestamptz
    );
    create index outbox_due on outbox (next_attempt_at) where status = 'queued';
    create index outbox_done on outbox (done_at) where status <> 'queued';

    create table dkim_keys (
      domain text primary key,
      selector text not null,
      private_key text not null,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}
