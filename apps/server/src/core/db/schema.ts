import type { ColumnType, Generated } from 'kysely';
import type {
  AliasKind,
  AliasStatus,
  CollectorState,
  DkimAlgorithm,
  DkimKeyState,
  DomainStatus,
  FolderSystem,
  ImapSecurity,
  LabelSearchField,
  PassportLevel,
  Settings,
  VerificationFailure,
  VerificationMethod,
} from '@mailroom/protocol';

/** An aliases row: a free or paid alias on the mail domain, or an address on a domain (issue 17). */
export type AddressKind = AliasKind | 'domain';
/** An address on a domain may also be prepared: made, not receiving until its confirm. */
export type AddressStatus = AliasStatus | 'prepared';

/** An account's own domain, or one of the service's public domains (PUBLIC_DOMAINS). */
export type DomainKind = 'own' | 'public';

export interface MailAddress {
  email: string;
  name: string;
}

/** Header addresses of a message, as parsed at ingest. */
export interface MessageAddresses {
  from?: MailAddress[];
  to?: MailAddress[];
  cc?: MailAddress[];
  bcc?: MailAddress[];
  reply_to?: MailAddress[];
}

/**
 * Where a leaf MIME part's body lies in the raw message, and how it is encoded (`end` exclusive).
 * An attachment is kept as this range of the stored message, decoded when it is downloaded.
 */
export interface PartRange {
  start: number;
  end: number;
  encoding: 'base64' | 'quoted-printable' | 'binary';
}

/**
 * An attachment of a stored message; `id` is its position in the message, `size` its decoded size.
 * Its bytes are `part` of the message's raw blob; a message stored before attachments were kept
 * that way (2026-11-24) has a blob of its own for each (`blob_hash`) instead.
 */
export type StoredAttachment = {
  id: number;
  name: string;
  size: number;
  content_type: string;
  content_id: string | null;
  inline: boolean;
} & ({ part: PartRange; blob_hash?: undefined } | { blob_hash: string; part?: undefined });

/** A vCard property as jCard writes it (RFC 7095): name, parameters, value type, then the value(s). */
export type VcardProperty = [string, Record<string, string | string[]>, string, ...unknown[]];

/** queued: waiting for (another) attempt; sent: accepted; bounced: given up, the sender told. */
export type OutboxStatus = 'queued' | 'sent' | 'bounced';

/** The statuses of an invoice (protocol's invoiceStatusValues). */
/** refund_due and refunded: a late payment for an invoice settled as failed, whose purchase could not be delivered. */
export type InvoiceStatus =
  'unpaid' | 'paid' | 'rejected' | 'expired' | 'cancelled' | 'refund_due' | 'refunded';
/** What reported an invoice's change: 'I have already paid', the webhook, the reconciliation job, a cancel, the sandbox. */
/** The sandbox wallet's own invoice statuses: the wallet's, which know no refund_due. */
export type SandboxInvoiceStatus = Exclude<InvoiceStatus, 'refund_due'>;
export type InvoiceChangeSource = 'check' | 'webhook' | 'reconcile' | 'cancel' | 'sandbox' | 'refund';

type FilterRunState = 'queued' | 'running' | 'done' | 'failed';
type ContactImportState = FilterRunState;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Int8 = ColumnType<number, number | bigint, number | bigint>;

/** The database as Kysely sees it; migrations/ is the source of truth for the DDL. */
export interface Database {
  /** Blobs of at most SMALL_BLOB_MAX_BYTES, kept in the database (core/blobs, DatabaseBlobStore). */
  blobs: {
    hash: string;
    /** The blob's own size, before compression. */
    size: number;
    /** 0: `data` is the bytes; 1: raw DEFLATE of them. */
    codec: number;
    data: Uint8Array;
    /** When the row was written or last put again: the collector's grace period counts from it. */
    written_at: ColumnType<Date, Date | undefined, Date>;
  };
  /** The job queue (core/jobs, migration 039): one row per kind and key. */
  jobs: {
    id: Generated<number>;
    kind: string;
    key: string;
    payload: ColumnType<unknown, string | undefined, string>;
    run_at: ColumnType<Date, Date | undefined, Date>;
    lease_owner: string | null;
    lease_until: Date | null;
    attempts: Generated<number>;
    last_started_at: Date | null;
    last_error: string | null;
    created_at: Generated<Date>;
  };
  accounts: {
    id: Generated<number>;
    member_id: string;
    name: string;
    email: string;
    settings: ColumnType<Settings, string, string>;
    quota_limit_bytes: Int8;
    quota_used_bytes: ColumnType<number, number | undefined, number>;
    passport_level: ColumnType<PassportLevel, PassportLevel | undefined, PassportLevel>;
    first_name: ColumnType<string, string | undefined, string>;
    last_name: ColumnType<string, string | undefined, string>;
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
    /** Lowercased local part @ the mail domain. */
    email: string;
    kind: ColumnType<AddressKind, AddressKind | undefined, AddressKind>;
    status: ColumnType<AddressStatus, AddressStatus | undefined, AddressStatus>;
    /** The invoice of a paid alias (`invoices.id`). */
    invoice_id: ColumnType<number | null, number | null | undefined, number | null>;
    /** Set when deleted: the row stays for the mail that points at it. */
    deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    /** kind 'domain': the domain the address is on (`domains.id`); null for free and paid aliases. */
    domain_id: ColumnType<number | null, number | null | undefined, number | null>;
    created_at: CreatedAt;
  };
  /** Own domains of accounts and the service's public domains (addresses/; migration 027). */
  domains: {
    id: Generated<number>;
    account_id: number | null;
    kind: ColumnType<DomainKind, DomainKind | undefined, DomainKind>;
    /** ASCII, lowercased (punycode for an IDN). */
    name: string;
    display_name: string;
    status: ColumnType<DomainStatus, DomainStatus | undefined, DomainStatus>;
    paid: ColumnType<boolean, boolean | undefined, boolean>;
    invoice_id: ColumnType<number | null, number | null | undefined, number | null>;
    token: string;
    method: ColumnType<
      VerificationMethod | null,
      VerificationMethod | null | undefined,
      VerificationMethod | null
    >;
    failure_reason: ColumnType<
      VerificationFailure | null,
      VerificationFailure | null | undefined,
      VerificationFailure | null
    >;
    failure_found: ColumnType<string | null, string | null | undefined, string | null>;
    verified_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    checked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    unverified_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
    /** When the first confirm (or the first after an expiry) was asked (migration 028). */
    confirm_started_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    catch_all_alias_id: ColumnType<number | null, number | null | undefined, number | null>;
    deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    created_at: CreatedAt;
  };
  /** A domain's DKIM keys (private_key encrypted with a key derived from SECRET_KEY). */
  domain_dkim_keys: {
    id: Generated<number>;
    domain_id: number;
    selector: string;
    algorithm: DkimAlgorithm;
    state: DkimKeyState;
    private_key: string;
    /** Base64 of the TXT record's p= value. */
    public_key: string;
    created_at: CreatedAt;
    retire_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  };
  /** An address (aliases row) its owner lets another member read and send as. */
  delegations: {
    alias_id: number;
    delegate_account_id: number;
    created_at: CreatedAt;
  };
  alias_access_changes: {
    alias_id: number;
    changed_at: ColumnType<Date, Date | undefined, Date>;
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
  labels: {
    id: Generated<number>;
    account_id: number;
    name: string;
    color: ColumnType<string, string | undefined, string>;
    search_field: ColumnType<LabelSearchField, LabelSearchField | undefined, LabelSearchField>;
    search_content: string;
    folder_id: number | null;
    created_at: CreatedAt;
  };
  messages: {
    id: Generated<number>;
    account_id: number;
    folder_id: number;
    uid: number;
    thread_id: ColumnType<number, number | undefined, number>;
    blob_hash: string;
    size: number;
    message_id: string | null;
    in_reply_to: string | null;
    reference_ids: ColumnType<string[], string[] | undefined, string[]>;
    subject: ColumnType<string, string | undefined, string>;
    thread_subject: ColumnType<string, string | undefined, string>;
    from_email: ColumnType<string, string | undefined, string>;
    from_name: ColumnType<string, string | undefined, string>;
    addresses: ColumnType<MessageAddresses, string | undefined, string>;
    preview: ColumnType<string, string | undefined, string>;
    attachments: ColumnType<StoredAttachment[], string | undefined, string>;
    has_attachments: ColumnType<boolean, boolean | undefined, boolean>;
    seen: ColumnType<boolean, boolean | undefined, boolean>;
    flagged: ColumnType<boolean, boolean | undefined, boolean>;
    answered: ColumnType<boolean, boolean | undefined, boolean>;
    draft: ColumnType<boolean, boolean | undefined, boolean>;
    labels: ColumnType<number[], number[] | undefined, number[]>;
    encrypted: ColumnType<boolean, boolean | undefined, boolean>;
    alias_id: number | null;
    sent_at: Date | null;
    received_at: ColumnType<Date, Date | undefined, Date>;
    /** When the thread's latest message (not a draft) arrived, in any folder; kept by triggers (038). */
    thread_at: ColumnType<Date, Date | undefined, Date>;
    /** When the message came back (a snooze ended, a follow-up found no reply) and why (041); null otherwise. */
    returned_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    returned_for: ColumnType<
      'snooze' | 'follow_up' | null,
      'snooze' | 'follow_up' | null | undefined,
      'snooze' | 'follow_up' | null
    >;
  };
  /** A message waiting in Scheduled to be sent: held for the undo window or scheduled for later (sending/, 041). */
  scheduled_sends: {
    id: Generated<number>;
    account_id: number;
    /** Its copy in Scheduled (null once that copy is deleted: then nothing is sent). */
    message_row_id: number | null;
    purpose: 'undo' | 'later';
    state: ColumnType<'waiting' | 'sent', 'waiting' | 'sent' | undefined, 'waiting' | 'sent'>;
    send_at: Date;
    /** The outbound bytes (without Bcc, with our Received field), as the outbox sends them. */
    blob_hash: string;
    size: number;
    message_id: string;
    envelope_from: string;
    recipients: ColumnType<{ address: string; local: boolean }[], string, string>;
    /** The message it answers (marked \Answered when it goes). */
    source_row_id: number | null;
    upload_ids: ColumnType<number[], number[] | undefined, number[]>;
    encrypted: ColumnType<boolean, boolean | undefined, boolean>;
    /** A follow-up reminder to start when it goes: back to the Inbox after this many days without a reply. */
    remind_after_days: number | null;
    created_at: CreatedAt;
    finished_at: Date | null;
  };
  /** A message put away in Snoozed until a time, and the folder it returns to (mailbox/, 041). */
  snoozes: {
    message_row_id: number;
    account_id: number;
    thread_id: number;
    return_folder_id: number | null;
    until: Date;
    created_at: CreatedAt;
  };
  /** A sent message that comes back to the Inbox when no reply has come by `due_at` (sending/, 041). */
  follow_ups: {
    id: Generated<number>;
    account_id: number;
    message_row_id: number;
    message_id: string;
    due_at: Date;
    created_at: CreatedAt;
  };
  message_contents: {
    message_id: number;
    /** The message's account (031): the search indexes start with it, so a search reads one mailbox's entries. */
    account_id: number;
    body_text: ColumnType<string, string | undefined, string>;
    body_html: string | null;
    search_vector: ColumnType<string, unknown, unknown>;
    /** What the receiving path found out (mailbox/verdict.ts, 040); null: never checked. */
    verdict: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  };
  /** A member's allow and block lists of sender addresses and domains (040). */
  sender_lists: {
    account_id: number;
    entry: string;
    list: 'allow' | 'block';
    created_at: CreatedAt;
  };
  sessions: {
    id: string;
    account_id: number;
    alias_email: string | null;
    created_at: CreatedAt;
    expires_at: Date;
    last_seen_at: ColumnType<Date, Date | undefined, Date>;
    /** The provider's ID token of the sign-in, for its end_session_endpoint; null for password access. */
    id_token: ColumnType<string | null, string | null | undefined, string | null>;
    /** Set while the session has opened another member's mailbox (impersonation): who really signed in. */
    actor_account_id: ColumnType<number | null, number | null | undefined, number | null>;
  };
  /** Sign-ins and failed attempts of an account (auth/), kept AUTH_LOG_DAYS. */
  auth_log: {
    id: Generated<number>;
    account_id: number;
    at: CreatedAt;
    ip: string;
    user_agent: string;
    method: 'sso' | 'password' | 'impersonation';
    success: boolean;
    address: string | null;
    member_id: string | null;
  };
  /** Members an owner lets open the mailbox ('mailbox') or act for the owner's bank accounts ('ba'). */
  access_grants: {
    account_id: number;
    member_id: string;
    kind: 'mailbox' | 'ba';
    granted_at: CreatedAt;
  };
  /** The live confirmation code of an account's mailbox password (its HMAC only). */
  password_codes: {
    account_id: number;
    purpose: 'new' | 'change';
    code_hash: string;
    created_at: Date;
    expires_at: Date;
    attempts: ColumnType<number, number | undefined, number>;
    used_at: Date | null;
    /** The first code of the current 24 hours, and how many were given since (PASSWORD_CODES_PER_DAY). */
    day_started_at: Date | null;
    day_codes: ColumnType<number, number | undefined, number>;
    /** Set when the day's last code was given: no new code before it. */
    locked_until: Date | null;
  };
  /** Support requests sent from settings/support. */
  support_requests: {
    id: Generated<number>;
    account_id: number;
    subject: string;
    text: string;
    diagnostics: boolean;
    created_at: CreatedAt;
  };
  password_accesses: {
    email: string;
    account_id: number;
    password_hash: string;
    created_at: CreatedAt;
  };
  server_keys: {
    name: string;
    value: string;
    created_at: CreatedAt;
  };
  rate_limits: {
    key: string;
    count: number;
    reset_at: Date;
  };
  sign_in_throttles: {
    key: string;
    failures: number;
    last_failure_at: Date;
    blocked_until: Date;
    notified_at: Date | null;
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
    passport_level: ColumnType<PassportLevel, PassportLevel | undefined, PassportLevel>;
    created_at: CreatedAt;
  };
  encrypted_messages: {
    id: string;
    account_id: number;
    sender_email: string;
    blob_hash: string;
    size: number;
    iterations: number;
    key_salt: string;
    auth_salt: string;
    /** Hex SHA-256 of the authentication value. */
    auth_digest: string;
    failed_attempts: ColumnType<number, number | undefined, number>;
    locked_at: Date | null;
    created_at: CreatedAt;
    expires_at: Date;
  };
  compose_uploads: {
    id: Generated<number>;
    account_id: number;
    /** The password-access address whose session uploaded it; null for the mailbox owner. */
    alias_email: string | null;
    blob_hash: string;
    name: string;
    content_type: string;
    size: Int8;
    created_at: CreatedAt;
    touched_at: ColumnType<Date, Date | undefined, Date>;
  };
  outbox: {
    id: Generated<number>;
    account_id: number;
    blob_hash: string;
    size: Int8;
    message_id: string | null;
    envelope_from: string;
    recipient: string;
    local: boolean;
    status: ColumnType<OutboxStatus, OutboxStatus | undefined, OutboxStatus>;
    attempts: ColumnType<number, number | undefined, number>;
    last_error: string | null;
    created_at: CreatedAt;
    done_at: Date | null;
  };
  filter_scripts: {
    account_id: number;
    script: string;
    version: number;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  filter_errors: {
    id: Generated<number>;
    account_id: number;
    at: ColumnType<Date, Date | undefined, never>;
    filter: string | null;
    message: string;
  };
  filter_runs: {
    id: Generated<number>;
    account_id: number;
    folder_id: number;
    script: string;
    dry_run: boolean;
    state: ColumnType<FilterRunState, FilterRunState | undefined, FilterRunState>;
    total: ColumnType<number, number | undefined, number>;
    done: ColumnType<number, number | undefined, number>;
    matched: ColumnType<number, number | undefined, number>;
    moved: ColumnType<number, number | undefined, number>;
    flagged: ColumnType<number, number | undefined, number>;
    labelled: ColumnType<number, number | undefined, number>;
    deleted: ColumnType<number, number | undefined, number>;
    skipped: ColumnType<number, number | undefined, number>;
    cursor_uid: ColumnType<number, number | undefined, number>;
    error: string | null;
    created_at: CreatedAt;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  filter_sends: {
    account_id: number;
    blob_hash: string;
    sent_at: ColumnType<Date, Date | undefined, Date>;
  };
  vacation_replies: {
    account_id: number;
    sender: string;
    handle: string;
    replied_at: Date;
  };
  filter_redirect_counts: {
    account_id: number;
    period: 'hour' | 'day';
    starts_at: Date;
    count: number;
    notified: ColumnType<boolean, boolean | undefined, boolean>;
  };
  contacts: {
    id: Generated<number>;
    account_id: number;
    name: string;
    surname: string;
    phone: string;
    /** YYYY-MM-DD; read it as text (`birthday::text`): the drivers turn a date into a local-time Date. */
    birthday: ColumnType<string | null, string | null, string | null>;
    notes: string;
    /** jCard properties the contacts screen does not show, kept for export. */
    vcard_properties: ColumnType<VcardProperty[], string | undefined, string>;
    search_text: string;
    created_at: CreatedAt;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  contact_emails: {
    contact_id: number;
    account_id: number;
    /** 0: the primary address. */
    position: number;
    email: string;
    email_lower: string;
    /** The contact's "name surname", lowercased (by the database). */
    name_lower: string;
  };
  contact_imports: {
    id: Generated<number>;
    account_id: number;
    state: ColumnType<ContactImportState, ContactImportState | undefined, ContactImportState>;
    format: string;
    group_id: number | null;
    blob_hash: string | null;
    total: ColumnType<number, number | undefined, number>;
    done: ColumnType<number, number | undefined, number>;
    added: ColumnType<number, number | undefined, number>;
    updated: ColumnType<number, number | undefined, number>;
    unchanged: ColumnType<number, number | undefined, number>;
    groups_added: ColumnType<number, number | undefined, number>;
    skipped: ColumnType<{ entry: number; reason: string }[], string | undefined, string>;
    skipped_count: ColumnType<number, number | undefined, number>;
    over_limit: ColumnType<number, number | undefined, number>;
    groups_over_limit: ColumnType<number, number | undefined, number>;
    error: string | null;
    created_at: CreatedAt;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  /** A mail import (migration 042, issue 33). */
  mail_imports: {
    id: Generated<number>;
    account_id: number;
    state: ColumnType<ContactImportState, ContactImportState | undefined, ContactImportState>;
    format: string | null;
    file_name: string;
    source_path: string | null;
    source_blob: string | null;
    /** A chunked upload the file came in (migration 043); null for the CLI's file and a compose upload. */
    source_upload: ColumnType<number | null, number | null | undefined, number | null>;
    filters: ColumnType<boolean, boolean | undefined, boolean>;
    position: ColumnType<number, number | undefined, number>;
    total: ColumnType<number, number | undefined, number>;
    stored: ColumnType<number, number | undefined, number>;
    already_here: ColumnType<number, number | undefined, number>;
    skipped: ColumnType<number, number | undefined, number>;
    failed: ColumnType<number, number | undefined, number>;
    report: ColumnType<unknown[], string | undefined, string>;
    error: string | null;
    created_at: CreatedAt;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  /** An import file's chunked upload and its parts, each a blob (migration 043). */
  mail_import_uploads: {
    id: Generated<number>;
    account_id: number;
    file_name: string;
    size: ColumnType<number, number, number>;
    created_at: CreatedAt;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  mail_import_upload_parts: {
    upload_id: number;
    part: number;
    size: number;
    blob_hash: string;
  };
  /** Every message an account imported, by key (migration 042). */
  mail_import_keys: {
    account_id: number;
    key: string;
  };
  contact_groups: {
    id: Generated<number>;
    account_id: number;
    name: string;
    created_at: CreatedAt;
  };
  contact_group_members: {
    group_id: number;
    contact_id: number;
  };
  correspondents: {
    account_id: number;
    /** Lowercased. */
    email: string;
    name: string;
    sent_count: number;
    last_sent_at: Date;
  };
  dkim_keys: {
    domain: string;
    selector: string;
    private_key: string;
    created_at: CreatedAt;
  };
  /** Our record of the wallet's invoices (wallet/); status changes only through settleInvoice. */
  invoices: {
    id: Generated<number>;
    account_id: number;
    purpose: string;
    subject_id: Int8;
    wallet_invoice_id: string;
    idempotency_key: string;
    /** Decimal string, e.g. '1.00'. */
    amount: string;
    currency: string;
    status: ColumnType<InvoiceStatus, InvoiceStatus | undefined, InvoiceStatus>;
    pay_url: string;
    created_at: CreatedAt;
    settled_at: Date | null;
  };
  /** Append-only (a trigger refuses UPDATE, DELETE, TRUNCATE): every change of an invoice's status. */
  invoice_ledger: {
    id: Generated<number>;
    invoice_id: number;
    from_status: InvoiceStatus;
    to_status: InvoiceStatus;
    source: InvoiceChangeSource;
    event_id: string | null;
    at: CreatedAt;
  };
  /** The embedded sandbox wallet's invoices (its own state, as the provider's wallet would keep it). */
  sandbox_wallet_invoices: {
    id: string;
    member_id: string;
    amount: string;
    currency: string;
    description: string;
    status: ColumnType<SandboxInvoiceStatus, SandboxInvoiceStatus | undefined, SandboxInvoiceStatus>;
    idempotency_key: string;
    created_at: CreatedAt;
    updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  /** Notices the sandbox wallet's application received (new mail, codes), shown on /sandbox/wallet. */
  sandbox_wallet_notices: {
    id: Generated<number>;
    member_id: string;
    kind: string;
    title: string;
    text: string;
    at: CreatedAt;
  };
  /** When each account's wallet application was last told of new mail. */
  wallet_mail_notices: {
    account_id: number;
    last_notified_at: Date;
  };
  /** Collectors: other IMAP mailboxes an account imports from (collectors/; migration 029). */
  collectors: {
    id: Generated<number>;
    account_id: number;
    email: string;
    login: string;
    host: string;
    port: number;
    security: ImapSecurity;
    password_sealed: string;
    folder_name: string;
    enabled: ColumnType<boolean, boolean | undefined, boolean>;
    apply_filters: ColumnType<boolean, boolean | undefined, boolean>;
    state: ColumnType<CollectorState, CollectorState | undefined, CollectorState>;
    folders_done: ColumnType<number, number | undefined, number>;
    folders_total: ColumnType<number, number | undefined, number>;
    messages_done: ColumnType<number, number | undefined, number>;
    messages_total: ColumnType<number, number | undefined, number>;
    messages_skipped: ColumnType<number, number | undefined, number>;
    last_error: string | null;
    last_error_at: Date | null;
    last_sync_at: Date | null;
    next_sync_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    failures: ColumnType<number, number | undefined, number>;
    auth_failures: ColumnType<number, number | undefined, number>;
    lease_owner: string | null;
    lease_until: Date | null;
    created_at: CreatedAt;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  collector_folders: {
    id: Generated<number>;
    /** Null while the rows are kept after their collector was deleted with its mail (migration 037). */
    collector_id: number | null;
    /** Whose, from which server and login, the rows of a deleted collector are (migration 037). */
    kept_account_id: number | null;
    kept_host: string | null;
    kept_login: string | null;
    kept_at: Date | null;
    remote_path: string;
    folder_id: number | null;
    uidvalidity: Int8 | null;
    last_uid: ColumnType<number, number | bigint | undefined, number | bigint>;
    /** numeric(20,0): a 64-bit unsigned MODSEQ, as text. */
    highest_modseq: string | null;
    messages_total: ColumnType<number, number | undefined, number>;
    messages_done: ColumnType<number, number | undefined, number>;
  };
  collector_messages: {
    collector_folder_id: number;
    uidvalidity: Int8;
    uid: Int8;
    message_id: number | null;
    fingerprint: string;
  };
}
