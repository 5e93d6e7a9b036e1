import { z } from 'zod';
import { INT4_MAX } from './common.js';

/**
 * Collectors (issue 18; SPEC §1, §2 settings/collectors: create, confirm/{email}; §3 Collector id, email, folder_name and
 * collector folders; §4 enabled or disabled; §7 user/collectors…; §8 the collector errors).
 *
 * A collector brings the mail of another IMAP mailbox into the account: every remote folder is copied into
 * `INBOX.import.<address>.<remote folder>` (the collector's folder is `INBOX.import.<address>`; see
 * `collectorFolderSegment` for how an address and a remote name become segments of our dotted path), incrementally,
 * keeping the sender's date and the flags \Seen, \Flagged, \Answered; then it polls for new mail while enabled. The
 * password is sealed at rest and never returned. Another account's id is collector_not_found, never data.
 */

/** How the connection is secured: implicit TLS (993), STARTTLS on the plain port (143), or none (tests, on-premises). */
export const imapSecurityValues = ['tls', 'starttls', 'none'] as const;
export type ImapSecurity = (typeof imapSecurityValues)[number];

/**
 * Where discovery found the server: the bundled provider table, an RFC 6186 SRV record (_imaps._tcp, then _imap._tcp),
 * the domain's autoconfig document (autoconfig.<domain>/mail/config-v1.1.xml, then
 * <domain>/.well-known/autoconfig/mail/config-v1.1.xml), or a guess (imap.<domain>, mail.<domain>) that answered a probe.
 */
export const imapSourceValues = ['provider', 'srv', 'autoconfig', 'guess'] as const;
export type ImapSource = (typeof imapSourceValues)[number];

/**
 * What a provider asks of the user before a collector can sign in: an app password (its own password for mail
 * programs, made in the provider's account settings), or nothing we can do here (OAuth only).
 */
export const providerRequirementValues = ['app_password', 'oauth'] as const;
export type ProviderRequirement = (typeof providerRequirementValues)[number];

export const imapServerSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(imapSecurityValues),
});
export type ImapServer = z.infer<typeof imapServerSchema>;

/** A known provider (the bundled table): its name as people know it, and what it requires. */
export const imapProviderSchema = z.object({
  /** e.g. "Gmail", "Yandex", "Mail.ru", "Outlook". */
  name: z.string(),
  requires: z.enum(providerRequirementValues).nullable(),
  /** Where the user makes an app password or allows mail programs (a page of the provider's). */
  help_url: z.string().nullable(),
});
export type ImapProvider = z.infer<typeof imapProviderSchema>;

/** POST user/collectors/find_imap {email}: collector_invalid_email for a bad address; mail_server_not_found. */
export const findImapSchema = z.object({ email: z.string().trim().min(1).max(254) });
export type FindImap = z.infer<typeof findImapSchema>;
export const findImapResponseSchema = z.object({
  server: imapServerSchema,
  source: z.enum(imapSourceValues),
  provider: imapProviderSchema.nullable(),
});
export type FindImapResponse = z.infer<typeof findImapResponseSchema>;

/**
 * POST user/collectors: signs in to the server with the password before saving (collector_invalid_password,
 * cannot_connect_to_mail_server, cant_fetch_inbox when the mailbox has no INBOX, collector_tls_failed,
 * collector_server_forbidden for a private address; collector_app_password_required or collector_oauth_required for a
 * provider that needs them, naming it). Without host/port/security the server is discovered as find_imap does. `login`
 * defaults to the address. invalid_port for a port outside 1–65535. err_provider_already_exists when the account
 * already collects this address; max_count_collectors beyond MAX_COLLECTORS.
 */
export const collectorCreateSchema = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
  login: z.string().trim().min(1).max(254).optional(),
  host: z.string().trim().min(1).max(253).optional(),
  port: z.number().int().max(INT4_MAX).optional(),
  security: z.enum(imapSecurityValues).optional(),
  /** Run the account's filters on imported mail (default no: imported mail lands in the collector's folders). */
  apply_filters: z.boolean().optional(),
});
export type CollectorCreate = z.infer<typeof collectorCreateSchema>;

/**
 * PUT user/collectors/{id}: enable or disable (a disabled collector neither imports nor polls; enabling clears a stop
 * after authentication failures), a new password (checked by signing in first, like create), apply_filters.
 */
export const collectorUpdateSchema = z.object({
  enabled: z.boolean().optional(),
  password: z.string().min(1).max(1024).optional(),
  apply_filters: z.boolean().optional(),
});
export type CollectorUpdate = z.infer<typeof collectorUpdateSchema>;

/** DELETE user/collectors/{id}?keep_mail=true|false: keep the imported folders and mail (as ordinary mail), or remove them. */
export const collectorDeleteQuerySchema = z.object({
  keep_mail: z.enum(['true', 'false']).default('true'),
});
export type CollectorDeleteQuery = z.infer<typeof collectorDeleteQuerySchema>;

/**
 * What the collector is doing: importing (the first copy, or a catch-up, is running), idle (up to date, waiting for the
 * next poll), retrying (the server failed; backing off), stopped (repeated authentication failures: the user must give
 * a new password or enable it again), disabled (the user turned it off).
 */
export const collectorStateValues = ['importing', 'idle', 'retrying', 'stopped', 'disabled'] as const;
export type CollectorState = (typeof collectorStateValues)[number];

export const collectorProgressSchema = z.object({
  folders_done: z.number().int(),
  folders_total: z.number().int(),
  messages_done: z.number().int(),
  messages_total: z.number().int(),
  /** Messages skipped because they were over the size cap, or the server could not give them. */
  messages_skipped: z.number().int(),
});
export type CollectorProgress = z.infer<typeof collectorProgressSchema>;

export const collectorSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  login: z.string(),
  /** The collector's folder, `INBOX.import.<address segment>`; the remote folders are below it. */
  folder_name: z.string(),
  server: imapServerSchema,
  enabled: z.boolean(),
  apply_filters: z.boolean(),
  state: z.enum(collectorStateValues),
  progress: collectorProgressSchema,
  /** The last error, as a catalogue code (e.g. collector_invalid_password, cannot_connect_to_mail_server), or null. */
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  /** When the last pass over the remote mailbox finished. */
  last_sync_at: z.string().nullable(),
  /** When the next pass is due (null while one runs, or when disabled or stopped). */
  next_sync_at: z.string().nullable(),
  created_at: z.string(),
});
export type Collector = z.infer<typeof collectorSchema>;

export const collectorsResponseSchema = z.object({ collectors: z.array(collectorSchema) });
export type CollectorsResponse = z.infer<typeof collectorsResponseSchema>;
export const collectorResponseSchema = z.object({ collector: collectorSchema });
export type CollectorResponse = z.infer<typeof collectorResponseSchema>;

/** The first segment of every collector folder path below the Inbox namespace (SPEC §3: a name containing '.import.'). */
export const COLLECTOR_NAMESPACE = 'import';

/**
 * One segment of our dotted folder path made from a remote name or an address: a dot becomes U+2024 ONE DOT LEADER
 * (it reads as a dot, and our dots separate levels), slashes, backslashes, % and * become U+2215/U+2216/U+066A/U+2217
 * lookalikes, control and bidirectional-override characters are dropped, and the result is cut to 100 characters;
 * an empty result is "_". `ivan@mail.ru` → `ivan@mail․ru`.
 */
export function collectorFolderSegment(name: string): string {
  const mapped = [...name]
    .map((ch) => {
      switch (ch) {
        case '.':
          return '\u2024';
        case '/':
          return '\u2215';
        case '\\':
          return '\u2216';
        case '%':
          return '\u066a';
        case '*':
          return '\u2217';
        default:
          // eslint-disable-next-line no-control-regex
          return /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(ch) ? '' : ch;
      }
    })
    .join('')
    .trim();
  return [...mapped].slice(0, 100).join('') || '_';
}

/** The collector's own folder path for an address: `INBOX.import.<address segment>`. */
export function collectorFolderName(email: string): string {
  return `INBOX.${COLLECTOR_NAMESPACE}.${collectorFolderSegment(email.toLowerCase())}`;
}
