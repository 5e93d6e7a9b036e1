import { sql, type Kysely } from 'kysely';

/** Durable state of the embedded identity provider (sessions, codes, grants), so it survives restarts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idp_models (
      kind text not null,
      id text not null,
      payload jsonb not null,
      grant_id text,
      user_code text,
      uid text,
      expires_at timestamptz,
      consumed_at timestamptz,
      primary key (kind, id)
    );
    create index idp_models_grant on idp_models (grant_id) where grant_id is not null;
    create index idp_models_uid on idp_models (uid) where uid is not null;
    create index idp_models_expires on idp_models (expires_at);
  `.execute(db);
}
