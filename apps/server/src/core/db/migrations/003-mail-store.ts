import { sql, type Kysely } from 'kysely';

/**
 * The mail store. `messages` is narrow (what a list shows); bodies and the search vector live in
 * `message_contents`, so a folder page never reads them. The raw message is a blob, addressed by
 * its SHA-256; attachments are blobs too (listed in `attachments`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create extension if not exists pg_trgm;

    create table labels (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      name text not null,
      color text not null default '#e66465',
      search_field text not null default 'body' check (search_field in ('subject', 'body', 'from', 'to')),
      search_content text not null,
      folder_id bigint references folders (id) on delete set null,
      created_at timestamptz not null default now()
    );
    create index labels_account on labels (account_id);

    create sequence message_threads_seq;

    create table messages (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      folder_id bigint not null references folders (id) on delete cascade,
      uid integer not null,
      thread_id bigint not null default nextval('message_threads_seq'),
      blob_hash text not null,
      size integer not null,
      message_id text,
      in_reply_to text,
      reference_ids text[] not null default '{}',
      subject text not null default '',
      thread_subject text not null default '',
      from_email text not null default '',
      from_name text not null default '',
      addresses jsonb not null default '{}',
      preview text not null default '',
      attachments jsonb not null default '[]',
      has_attachments boolean not null default false,
      seen boolean not null default false,
      flagged boolean not null default false,
      answered boolean not null default false,
      draft boolean not null default false,
      labels bigint[] not null default '{}',
      encrypted boolean not null default false,
      alias_id bigint references aliases (id) on delete set null,
      sent_at timestamptz,
      received_at timestamptz not null default now(),
      unique (folder_id, uid)
    );
    create index messages_folder_page on messages (folder_id, received_at desc, id desc);
    create index messages_folder_unread on messages (folder_id, seen, received_at desc, id desc);
    create index messages_account_message_id on messages (account_id, message_id) where message_id is not null;
    create index messages_account_thread on messages (account_id, thread_id);
    create index messages_account_thread_subject on messages (account_id, thread_subject, received_at desc);
    create index messages_labels on messages using gin (labels);
    create index messages_from_trgm on messages using gin (from_email gin_trgm_ops);

    create table message_contents (
      message_id bigint primary key references messages (id) on delete cascade,
      body_text text not null default '',
      body_html text,
      search_vector tsvector not null default ''::tsvector
    );
    create index message_contents_search on message_contents using gin (search_vector);
  `.execute(db);
}
