import { sql, type Kysely } from 'kysely';

/**
 * Password-encrypted messages: the ciphertext is a blob; the row keeps what the browser needs to
 * derive the key (iterations, salts), the SHA-256 of the authentication value (never the value, the
 * password or the key), the failure counter for the per-message lockout, and the expiry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table encrypted_messages (
      id text primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      sender_email text not null,
      blob_hash text not null,
      size integer not null,
      iterations integer not null,
      key_salt text not null,
      auth_salt text not null,
      auth_digest text not null,
      failed_attempts integer not null default 0,
      locked_at timestamptz,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index encrypted_messages_expires on encrypted_messages (expires_at);
  `.execute(db);
}
