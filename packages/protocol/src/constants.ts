/** Business constants and limits (SPEC §9, with the few of §4 and §5 that both sides need). */

// Page sizes
/** Mail list page size; the user's per_page setting replaces it. */
export const LIST_PAGE_SIZE = 30;
export const SEARCH_PAGE_SIZE = 20;
export const CONTACT_SEARCH_PAGE_SIZE = 1000;
export const CONTACTS_ROUTE_LIMIT = 100;

// Sizes and quotas, in bytes
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
export const ATTACHMENTS_TOTAL_LIMIT_MB = 50;
export const ATTACHMENTS_TOTAL_LIMIT_BYTES = ATTACHMENTS_TOTAL_LIMIT_MB * MiB;
export const MAIL_QUOTA_BYTES = 1 * GiB;
export const FILES_QUOTA_BYTES = 40 * GiB;

/** Price of one paid alias, in units of the provider's dollar-pegged currency. */
export const PAID_ALIAS_PRICE = 1;

// Lengths
export const ALIAS_NAME_MIN_LENGTH = 3;
export const ALIAS_NAME_MAX_LENGTH = 30;
export const ENCRYPTION_PASSWORD_MIN_LENGTH = 3;
export const ENCRYPTION_PASSWORD_MAX_LENGTH = 20;
export const ENCRYPTION_PASSWORD_GENERATED_LENGTH = 20;
export const MEMBER_ID_LENGTH = 12;

// Timings, in milliseconds unless the name says otherwise
/** Drafts autosave interval; skipped while the compose window is collapsed. */
export const AUTOSAVE_MS = 30_000;
export const ACCESS_RECHECK_MS = 30_000;
export const DOUBLE_CLICK_MS = 350;
/** How long the error/success dialog and the msg_sent text stay up. */
export const BANNER_MS = 4_000;
export const COPIED_MS = 1_500;
export const REDIRECT_COOKIE_MAX_AGE_S = 72_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

// Websocket
export const WS_PATH = '/ws';
/** The first frame the client sends once the socket is open. */
export const WS_OPENING_MESSAGE = 'connection opening';
/** The close code of a socket whose session ended or changed (RFC 6455 1008, policy violation). */
export const WS_CLOSE_SESSION_ENDED = 1008;
export const WS_TOAST_AT_RECONNECTS = 3;
export const WS_RETRY_AFTER_CLOSE_MS = 1_000;
export const WS_RETRY_AFTER_ERROR_MS = 5_000;
export const WS_MAX_TRIES = 10;
/** The server's clock (ms) when it began an API request: the time up to which the answer's data is complete. */
export const SERVER_CLOCK_HEADER = 'x-mailroom-clock';
/** Allowance for clocks of several server processes and for an event published as the data was read. */
export const LIVE_SYNC_MARGIN_MS = 250;

// Layout
/** Recipient tags shown before the rest go into a '+N' dropdown. */
export const RECIPIENT_TAGS_SHOWN = 2;
/** List/reader split, in percent. */
export const SPLITTER_DEFAULT = [40, 60] as const;
/** Minimum widths of the list and the reader panes, in px. */
export const SPLITTER_MIN_WIDTHS = [370, 400] as const;
// Breakpoints, in px
export const MOBILE_MAX = 768;
export const DESKTOP_SPLIT_MIN = 992;
export const LIST_READER_SPLIT = 1300;

// Language
export const SUPPORTED_LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

// Labels
export const DEFAULT_LABEL_COLOR = '#e66465';
export const LABEL_SEARCH_FIELDS = ['subject', 'body', 'from', 'to'] as const;
export type LabelSearchField = (typeof LABEL_SEARCH_FIELDS)[number];
export const DEFAULT_LABEL_SEARCH_FIELD: LabelSearchField = 'body';

// Compose
/** Compose modes by number, as the API and the routes carry them (SPEC §4). */
export const COMPOSE_MODE = { NEW: 0, REPLY: 1, REPLY_ALL: 2, FORWARD: 3 } as const;
export type ComposeMode = (typeof COMPOSE_MODE)[keyof typeof COMPOSE_MODE];
export const REPLY_SUBJECT_PREFIX = 'Re:';
export const FORWARD_SUBJECT_PREFIX = 'Fwd:';
export const SIGNATURE_SEPARATOR = '---';
/** Recipient field names of a message, as `invalid_email_for` lists them. */
export const recipientFieldNames = ['to', 'cc', 'bcc', 'reply-to'] as const;
export type RecipientFieldName = (typeof recipientFieldNames)[number];

// Cookies
export const LANG_COOKIE = 'lang';
export const REDIRECT_COOKIE = 'redirect';
export const IS_LOGGED_COOKIE = 'isLogged';

/** Entries a member's allow and block lists of senders hold together (Settings → Spam). */
export const SENDER_LISTS_MAX = 1000;

/** Longest a send can be scheduled ahead, or a message snoozed (issue 31): beyond it, time_out_of_range. */
export const TIME_AHEAD_MAX_DAYS = 366;

/** Days a follow-up reminder may wait for a reply (compose's "Remind me if no reply in N days"). */
export const REMIND_AFTER_DAYS_MAX = 60;
