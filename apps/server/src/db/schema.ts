import type { ColumnType, Generated } from 'kysely';
import type { FolderSystem, Settings } from '@mailroom/protocol';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Int8 = ColumnType<number, number | bigint, number | bigint>;

/** The database as Kysely sees it; migrations/ is the source of truth for the DDL. */
export interface Database {
  accounts: {
    id: Generated<number>;
    member_id: string;
    name: string;
    email: string;
    settings: ColumnType<Settings, string, string>;
    quota_limit_bytes: Int8;
    quota_used_bytes: ColumnType<number, number | undefined, number>;
    created_at: CreatedAt;
  };
  profiles: {
    id: Generated<number>;
    account_id: number;
    name: string;
    email: string;
    signature: ColumnType<string, string | undefined, string>;
    is_default: boolean;
    created_at: CreatedAt;
  };
  aliases: {
    id: Generated<number>;
    account_id: number;
    email: string;
    created_at: CreatedAt;
  };
  folders: {
    id: Generated<number>;
    account_id: number;
    name: string;
    system: FolderSystem | null;
    uidvalidity: number;
    uidnext: ColumnType<number, number | undefined, number>;
    unread_count: ColumnType<number, number | undefined, number>;
    total_count: ColumnType<number, number | undefined, number>;
    created_at: CreatedAt;
  };
  sessions: {
    id: string;
    account_id: number;
    alias_email: string | null;
    created_at: CreatedAt;
    expires_at: Date;
    last_seen_at: ColumnType<Date, Date | undefined, Date>;
  };
  password_accesses: {
    email: string;
    account_id: number;
    password_hash: string;
    created_at: CreatedAt;
  };
  idp_models: {
    kind: string;
    id: string;
    payload: ColumnType<Record<string, unknown>, string, string>;
    grant_id: string | null;
    user_code: string | null;
    uid: string | null;
    expires_at: Date | null;
    consumed_at: Date | null;
  };
  idp_users: {
    member_id: string;
    name: string;
    password_hash: string;
    created_at: CreatedAt;
  };
}
