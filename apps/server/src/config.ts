import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { serverPackage } from './core/install.js';

/**
 * Every setting, read from environment variables. README "Settings" lists the same names;
 * `settingDocs` below is the source for that table so the two cannot drift apart silently
 * (a test compares them).
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => ['true', '1', 'yes'].includes(v));
const port = z.coerce.number().int().min(0).max(65535);
const url = z.url({ protocol: /^https?$/ });

/** 10.1.2.3, 10.0.0.0/8, fd00::/8 */
function isCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** true (every address), false (none), or addresses / CIDR ranges among loopback and private ones. */
const allowPrivate = z
  .string()
  .transform((v) => {
    if (['true', '1', 'yes'].includes(v)) return ['0.0.0.0/0', '::/0'];
    if (['false', '0', 'no'].includes(v)) return [];
    return v.split(/[\s,]+/).filter(Boolean);
  })
  .pipe(z.array(z.string().refine(isCidr, 'true, false, or IP addresses / CIDR ranges')));

const domainName = z
  .string()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i,
    'a domain name',
  );

const schema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  SMTP_PORT: port.default(2525),
  LMTP_PORT: port.optional(),
  SMTP_TLS_CERT: z.string().min(1).optional(),
  SMTP_TLS_KEY: z.string().min(1).optional(),
  // 50 MiB of attachments grow by a third in base64 plus line breaks and headers: 70 MB lets a
  // message with the 50 MiB attachment limit of common providers through.
  MAX_MESSAGE_SIZE: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3)
    .default(70_000_000),
  SMTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100_000).default(100),
  SMTP_MAX_LARGE_MESSAGES: z.coerce.number().int().min(1).max(10_000).default(8),
  SMTP_LARGE_MESSAGE_SIZE: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3)
    .default(10 * 1024 * 1024),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  PGLITE_FSYNC: bool.default(true),
  PGLITE_SHARED_BUFFERS: z
    .union([z.literal('auto'), z.coerce.number().int().min(16).max(1024)])
    .default('auto'),
  PGLITE_GROUP_COMMIT: bool.default(true),
  // Checked in loadConfig, whose messages never repeat the value.
  SECRET_KEY: z.string().optional(),
  SECRET_KEY_FILE: z.string().min(1).optional(),
  MAIL_DOMAIN: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i,
      'a domain name',
    )
    .default('mailroom.test'),
  PUBLIC_URL: url.optional(),
  MX_HOST: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i,
      'a host name',
    )
    .optional(),
  DNS_SERVERS: z
    .string()
    .default('')
    .transform((v) => v.split(/[\s,]+/).filter(Boolean)),
  INBOUND_AUTH: bool.default(true),
  INBOUND_AUTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  DKIM_MAX_SIGNATURES: z.coerce.number().int().min(1).max(50).default(10),
  DNS_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  ARC_TRUSTED_SEALERS: z
    .string()
    .default('')
    .transform((v) => v.split(/[\s,]+/).filter(Boolean)),
  PROTECTED_DOMAINS: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : v.split(/[\s,]+/).filter(Boolean))),
  RSPAMD_URL: z.string().url().optional(),
  RSPAMD_CONTROLLER_URL: z.string().url().optional(),
  RSPAMD_PASSWORD: z.string().optional(),
  RSPAMD_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  JUNK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  SCHEDULED_MAX: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  UNDO_SEND_DEFAULT_SECONDS: z.coerce
    .number()
    .pipe(z.union([z.literal(0), z.literal(5), z.literal(10), z.literal(20), z.literal(30)]))
    .default(10),
  DUE_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  FREE_DOMAINS: z.coerce.number().int().min(0).max(1000).default(1),
  DOMAIN_PRICE: z.coerce.number().positive().max(1_000_000).default(1),
  PUBLIC_DOMAINS: z
    .string()
    .default('')
    .transform((v) => v.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(domainName)),
  DOMAIN_SITE_URL: z
    .string()
    .default('https://{domain}/')
    .refine(
      (v) => v.includes('{domain}') && /^https?:\/\//.test(v),
      'an http(s) address with {domain} in it, e.g. https://{domain}/',
    ),
  SPF_INCLUDE: domainName.optional(),
  DKIM_GRACE_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  OIDC_ISSUER: url.optional(),
  OIDC_CLIENT_ID: z.string().min(1).default('mailroom'),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_MEMBER_ID_CLAIM: z.string().min(1).default('member_id'),
  OIDC_PASSPORT_LEVEL_CLAIM: z.string().min(1).default('passport_level'),
  OIDC_SCOPES: z.string().min(1).default('openid profile'),
  SMTP_RELAY_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(3600_000).default(5_000),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(10).max(86_400_000).default(60_000),
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(15),
  OUTBOX_LEASE_MS: z.coerce.number().int().min(1000).max(86_400_000).default(600_000),
  REDIRECT_LIMIT_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(50),
  REDIRECT_LIMIT_DAY: z.coerce.number().int().min(1).max(10_000_000).default(200),
  FRAME_ANCESTORS: z
    .string()
    .default('')
    .transform((v) => v.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(z.url({ protocol: /^https?$/ }))),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(24 * 14),
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  PASSWORD_CODES_PER_DAY: z.coerce.number().int().min(1).max(1000).default(10),
  ENCRYPTED_MESSAGE_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(28),
  ENCRYPTED_MESSAGE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  DECRYPT_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  IMAGE_PROXY_ALLOW_PRIVATE: allowPrivate.optional(),
  OUTBOUND_ALLOW_PRIVATE: allowPrivate.optional(),
  IMAGE_PROXY_MAX_SIZE: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3)
    .default(10 * 1024 * 1024),
  IMAGE_PROXY_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  IMAGE_PROXY_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  SIEVE_TIME_LIMIT_MS: z.coerce.number().int().min(10).max(60_000).default(100),
  FREE_DOMAIN_EMAILS: z.coerce.number().int().min(0).max(100_000).default(10),
  DOMAIN_EMAIL_PRICE: z.coerce.number().positive().max(1_000_000).default(1),
  COLLECTOR_POLL_MINUTES: z.coerce.number().min(0.05).max(60).default(5),
  MAX_COLLECTORS: z.coerce.number().int().min(0).max(1000).default(10),
  MAX_CONTACTS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  MAX_CONTACT_GROUPS: z.coerce.number().int().min(1).max(100_000).default(500),
  COLLECTOR_MESSAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3)
    .default(50 * 1024 * 1024),
  COLLECTOR_AUTH_FAILURES: z.coerce.number().int().min(1).max(100).default(3),
  BLOB_STORE: z.enum(['fs', 's3']).default('fs'),
  S3_ENDPOINT: url.optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  BLOB_GC_GRACE_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 365)
    .default(24),
  WALLET_API_URL: url.optional(),
  WALLET_API_KEY: z.string().min(1).optional(),
  WALLET_WEBHOOK_SECRET: z.string().min(16).optional(),
  TRUST_PROXY: bool.default(false),
  METRICS_TOKEN: z.string().min(16).optional(),
  METRICS_PORT: z.union([z.literal('off'), port]).default(9464),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(0),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(25),
  SUPPORT_EMAIL: z.email().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().min(1).optional(),
});

export type Env = z.input<typeof schema>;

export interface Config {
  port: number;
  host: string;
  smtpPort: number;
  /** LMTP listener for a front MTA (Postfix); undefined: no LMTP. */
  lmtpPort: number | undefined;
  /** PEM file paths; both set: STARTTLS is offered on SMTP. */
  smtpTls: { certFile: string; keyFile: string } | undefined;
  /** Largest message accepted over SMTP/LMTP, in bytes (announced with SIZE). */
  maxMessageSize: number;
  /** SMTP/LMTP connections open at once (each listener); more are turned away with 421. */
  smtpMaxConnections: number;
  /** Messages over `smtpLargeMessageSize` received and stored at once; more wait (452, 4.3.1). */
  smtpMaxLargeMessages: number;
  smtpLargeMessageSize: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Embedded PGlite fsyncs its commits and checkpoints; false only for data that may be lost (README). */
  pgliteFsync: boolean;
  /** Embedded PGlite's shared_buffers in MB; undefined: sized to the database at each start. */
  pgliteSharedBuffersMb: number | undefined;
  /** Embedded PGlite syncs its WAL off the event loop, concurrent commits sharing a sync (pglite-durable.ts). */
  pgliteGroupCommit: boolean;
  /**
   * The deployment's secret, from SECRET_KEY or SECRET_KEY_FILE: every key the service uses is derived
   * from it (core/secrets.ts), so processes sharing it agree. Undefined: keys generated under DATA_DIR.
   */
  secretKey: string | undefined;
  mailDomain: string;
  /** Resolvers asked for domain verification, DNS health and MX checks ("host" or "host:port"); empty: the system's. */
  dnsServers: string[];
  /** The host own domains' MX records must point at (MX_HOST, default mx.MAIL_DOMAIN). */
  mxHost: string;
  /** What is checked of mail arriving over SMTP and LMTP (issue 30): its sender, its spamminess. */
  inbound: {
    /** SPF, DKIM, DMARC and ARC, with our Authentication-Results prepended (INBOUND_AUTH). */
    auth: boolean;
    authTimeoutMs: number;
    /** DKIM signatures verified at most on one message, the topmost first. */
    maxDkimSignatures: number;
    /** How long DNS answers for these checks are kept. */
    dnsCacheSeconds: number;
    /** Domains whose passing ARC seal vouches for mail that failed DMARC on the way (mailing lists we trust). */
    arcTrustedSealers: string[];
    /** Domains an impostor would imitate: ours and the provider's (PROTECTED_DOMAINS, default the mail and public domains). */
    protectedDomains: string[];
    /** Rspamd: its normal worker (scans) and controller (learning); null without RSPAMD_URL. */
    rspamd: { url: string; controllerUrl: string; password: string | undefined; timeoutMs: number } | null;
    /** Messages in Junk older than this many days are removed. */
    junkRetentionDays: number;
  };
  /** Own domains (addresses/ domains): what is free, what is paid, how they are verified. */
  domains: {
    /** Domains an account adds free; each further one is paid (DOMAIN_PRICE through the wallet). */
    free: number;
    price: number;
    /** The service's public domains, on which members take (paid) addresses. */
    publicDomains: string[];
    /** The page fetched for the verification meta tag, `{domain}` standing for the domain. */
    siteUrl: string;
    /** The name own domains' SPF records include (SPF_INCLUDE, default _spf.MAIL_DOMAIN). */
    spfInclude: string;
    /** Days a rotated-out DKIM key stays published. */
    dkimGraceDays: number;
    /** Addresses on own domains an account keeps free; each further one is paid (FREE_DOMAIN_EMAILS). */
    freeEmails: number;
    /** The price of a paid address on a domain (beyond freeEmails, or on a public domain): DOMAIN_EMAIL_PRICE. */
    emailPrice: number;
  };
  /**
   * Loopback and private addresses (CIDR ranges) the server may reach on others' behalf anyway — remote images, a
   * domain's verification page (OUTBOUND_ALLOW_PRIVATE, or the older IMAGE_PROXY_ALLOW_PRIVATE). Tests, internal hosts.
   */
  outboundAllowPrivate: string[];
  /** The address book's limits per account (issue 28): a create or an import past them is refused or cut. */
  contacts: {
    /** Contacts an account may have (MAX_CONTACTS). */
    max: number;
    /** Contact groups an account may have (MAX_CONTACT_GROUPS). */
    maxGroups: number;
  };
  /** Collectors (collectors/): importing mail from other IMAP mailboxes (issue 18). */
  collectors: {
    /** Minutes between polls of an enabled collector that is up to date (COLLECTOR_POLL_MINUTES). */
    pollMinutes: number;
    /** Collectors an account may have (MAX_COLLECTORS). */
    max: number;
    /** A remote message larger than this is skipped and counted (COLLECTOR_MESSAGE_MAX_BYTES). */
    messageMaxBytes: number;
    /** Authentication refusals in a row after which a collector stops and its owner is told (COLLECTOR_AUTH_FAILURES). */
    authFailuresToStop: number;
  };
  publicUrl: string;
  oidc: {
    /** Undefined: the embedded development identity provider runs at `${publicUrl}/oidc`. */
    issuer: string | undefined;
    clientId: string;
    clientSecret: string | undefined;
    memberIdClaim: string;
    /** Claim carrying the member's passport level (none, formal, verified, full), stored at each sign-in. */
    passportLevelClaim: string;
    scopes: string;
  };
  smtpRelayUrl: string | undefined;
  /** Caps on what one account's filters redirect (REDIRECT_LIMIT_HOUR, REDIRECT_LIMIT_DAY): past one, mail is kept. */
  redirectLimits: { hour: number; day: number };
  /** Undo send, send later, snooze and follow-ups (issue 31). */
  timeControls: {
    /** Messages one account may have waiting in Scheduled. */
    scheduledMax: number;
    /** How often a process looks for due items (one claim statement each time). */
    pollMs: number;
    /** A new account's undo_send_seconds. */
    undoSendDefault: 0 | 5 | 10 | 20 | 30;
  };
  outbox: {
    /** How often the outbox job looks for mail that is due. */
    pollMs: number;
    /** First retry delay; each further attempt waits twice as long (capped at 4 hours). */
    retryBaseMs: number;
    /** Attempts before a temporary failure becomes a bounce to the sender. */
    maxAttempts: number;
    /**
     * How long rows a process claimed are left to it: a process killed while it holds them leaves them to the
     * others once this runs out. It must outlast a claimed batch's attempts, or another process takes them meanwhile.
     */
    leaseMs: number;
  };
  /** Origins allowed to frame the app; non-empty means embedding is on (SameSite=None cookies). */
  frameAncestors: string[];
  sessionTtlMs: number;
  authRateLimit: number;
  /** Mailbox-password codes an account may ask for in 24 hours; then the flow is locked until the day is over. */
  passwordCodesPerDay: number;
  encrypted: {
    /** How long a password-encrypted message can be opened. */
    ttlMs: number;
    /** Wrong passwords before the message is locked (and its sender told). */
    maxAttempts: number;
    /** Decrypt requests per minute per IP. */
    rateLimit: number;
  };
  /** How long one run of a member's Sieve script may take, in ms (filters/sieve-pool.ts). */
  sieveTimeLimitMs: number;
  /** Remote images of messages, fetched by the server for the reader (mail/image-proxy.ts). */
  imageProxy: {
    /** Loopback and private addresses (CIDR ranges) it may fetch from too (tests, internal image hosts). */
    allowPrivate: string[];
    /** Largest image passed on, in bytes. */
    maxBytes: number;
    /** Time for the whole fetch, redirects and body included. */
    timeoutMs: number;
    /** Images per minute per account: signed in, anyone could make the server fetch for them. */
    rateLimit: number;
  };
  /**
   * Where blobs (raw messages, attachments, uploads, encrypted messages) live beyond the database's small ones
   * (core/blobs): a folder under DATA_DIR ('fs', one host) or an S3-compatible bucket ('s3', shared by every node).
   */
  blobs: {
    store: 'fs' | 's3';
    s3: {
      /** Undefined: AWS's own endpoint for the region. */
      endpoint: string | undefined;
      bucket: string;
      region: string;
      /** Undefined: the SDK's default credential chain (environment, instance role). */
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    } | null;
    /** A blob nothing references is removed this long after it was last referenced or written (BLOB_GC_GRACE_HOURS). */
    gcGraceMs: number;
  };
  /** The provider's wallet (wallet/): apiUrl undefined runs the embedded sandbox wallet. */
  wallet: {
    apiUrl: string | undefined;
    apiKey: string | undefined;
    /** The key of the webhook's X-Wallet-Signature; undefined: every webhook is refused. */
    webhookSecret: string | undefined;
  };
  trustProxy: boolean;
  /**
   * SIGTERM/SIGINT (main.ts): readiness says 503 for `delayMs` while everything still works, then listeners close and
   * what is in progress gets `timeoutMs` to finish.
   */
  shutdown: { delayMs: number; timeoutMs: number };
  /**
   * Prometheus metrics: `listener` is their own listener (METRICS_HOST:METRICS_PORT, loopback by default; null with
   * METRICS_PORT=off); `token`, when set (METRICS_TOKEN), also serves /metrics on the public port to its bearer
   * (without it the public port has no /metrics).
   */
  metrics: { listener: { host: string; port: number } | null; token?: string };
  /** Where support requests go (SUPPORT_EMAIL, default support@MAIL_DOMAIN). */
  supportEmail: string;
  logLevel: string;
  webDistDir: string;
}

export const settingDocs: Record<keyof z.infer<typeof schema>, string> = {
  PORT: 'HTTP port of the web app, API and websocket (default 8080)',
  HOST: 'Interface to listen on (default 0.0.0.0)',
  SMTP_PORT: 'SMTP ingest port (default 2525)',
  LMTP_PORT: 'LMTP ingest port for a front MTA such as Postfix (default none: no LMTP)',
  SMTP_TLS_CERT: 'PEM certificate file for STARTTLS on the SMTP port (with SMTP_TLS_KEY)',
  SMTP_TLS_KEY: 'PEM private key file for STARTTLS on the SMTP port (with SMTP_TLS_CERT)',
  MAX_MESSAGE_SIZE: 'Largest incoming message in bytes, announced with SIZE (default 70000000)',
  SMTP_MAX_CONNECTIONS: 'SMTP (and LMTP) connections open at once; more get 421 (default 100)',
  SMTP_MAX_LARGE_MESSAGES:
    'Messages over SMTP_LARGE_MESSAGE_SIZE received at once; more are told to retry with 452 (default 8)',
  SMTP_LARGE_MESSAGE_SIZE: 'Size in bytes from which a message counts as large (default 10485760)',
  DATA_DIR: 'Folder for the embedded database, blobs and generated keys (default ./data)',
  DATABASE_URL: 'PostgreSQL connection URL; unset means embedded PGlite under DATA_DIR',
  PGLITE_FSYNC:
    'false runs embedded PGlite without fsync: faster on slow disks, but a power cut or OS crash can lose acknowledged mail or corrupt the database (default true)',
  PGLITE_SHARED_BUFFERS:
    "Embedded PGlite's shared_buffers in MB (16–1024); auto sizes them to the database at each start, 16 MB for an empty one up to 96 MB (default auto)",
  PGLITE_GROUP_COMMIT:
    'false syncs each embedded PGlite commit on the event loop, one at a time, instead of off it with concurrent commits sharing a sync; as durable either way (default true)',
  SECRET_KEY:
    'Secret of the deployment, at least 32 characters, every key is derived from; processes sharing a database must share it (default none: keys generated under DATA_DIR)',
  SECRET_KEY_FILE: 'File holding SECRET_KEY (trailing whitespace ignored), instead of SECRET_KEY itself',
  MAIL_DOMAIN: 'Domain of primary addresses, <memberId>@MAIL_DOMAIN (default mailroom.test)',
  MX_HOST:
    "The host name own domains' MX records must point at: this service's SMTP (default mx.MAIL_DOMAIN)",
  DNS_SERVERS:
    'Space- or comma-separated DNS servers ("host" or "host:port") for domain verification and MX checks (default the system\'s)',
  INBOUND_AUTH:
    'Check SPF, DKIM, DMARC and ARC on mail arriving over SMTP/LMTP, prepend Authentication-Results and enforce DMARC (default true)',
  INBOUND_AUTH_TIMEOUT_MS:
    "Time for one message's SPF/DKIM/DMARC/ARC checks; past it the results are temperror and the message is delivered (default 10000)",
  DKIM_MAX_SIGNATURES:
    'DKIM signatures verified at most on one incoming message, the topmost first (default 10)',
  DNS_CACHE_SECONDS: 'How long DNS answers for checking incoming mail are kept (default 300; 0: none)',
  ARC_TRUSTED_SEALERS:
    'Space- or comma-separated domains whose passing ARC seal overrides a DMARC failure (mailing lists and forwarders you trust; default none)',
  PROTECTED_DOMAINS:
    'Space- or comma-separated domains impostors imitate, flagged in the reader when a sender looks like them (default MAIL_DOMAIN and PUBLIC_DOMAINS)',
  RSPAMD_URL:
    "Rspamd's normal worker (e.g. http://127.0.0.1:11333): every incoming message is scored; unset: no spam scoring (default)",
  RSPAMD_CONTROLLER_URL:
    "Rspamd's controller for learning from members' Junk moves (default RSPAMD_URL with port 11334)",
  RSPAMD_PASSWORD: "Rspamd controller's password for learning (default none)",
  RSPAMD_TIMEOUT_MS:
    'Time Rspamd has to score a message; past it the message is delivered to the Inbox marked unchecked (default 5000)',
  JUNK_RETENTION_DAYS: 'Messages in Junk older than this many days are removed (default 30)',
  SCHEDULED_MAX: 'Messages one account may have waiting to be sent later (default 1000)',
  UNDO_SEND_DEFAULT_SECONDS:
    "A new account's undo-send hold: 0, 5, 10, 20 or 30 seconds (default 10); each member changes it in Settings",
  DUE_POLL_MS:
    'How often each process looks for due scheduled sends, snoozes and follow-ups, in milliseconds (default 1000)',
  PUBLIC_URL: 'Public origin of the service (default http://localhost:PORT)',
  FREE_DOMAINS: 'Own domains an account adds free; each further one is paid (default 1)',
  DOMAIN_PRICE: 'Price of a domain beyond FREE_DOMAINS, in wallet units, paid through the wallet (default 1)',
  PUBLIC_DOMAINS:
    'Space- or comma-separated domains of the service on which members take paid addresses (default none)',
  DOMAIN_SITE_URL:
    "Page fetched for a domain's verification meta tag, {domain} standing for the domain (default https://{domain}/)",
  SPF_INCLUDE: "The name own domains' SPF records must include (default _spf.MAIL_DOMAIN)",
  DKIM_GRACE_DAYS: 'Days a rotated-out DKIM key of an own domain stays published before it goes (default 7)',
  OIDC_ISSUER: 'Issuer URL of the provider single sign-on; unset runs the embedded development IdP',
  OIDC_CLIENT_ID: 'OIDC client id (default mailroom)',
  OIDC_CLIENT_SECRET: 'OIDC client secret; required with OIDC_ISSUER',
  OIDC_MEMBER_ID_CLAIM: 'Claim carrying the 12-digit member ID (default member_id)',
  OIDC_PASSPORT_LEVEL_CLAIM:
    'Claim carrying the passport level (none, formal, verified, full); creating an alias needs formal or more (default passport_level)',
  OIDC_SCOPES: 'Scopes requested at sign-in (default "openid profile")',
  SMTP_RELAY_URL:
    'smtp:// or smtps:// URL of the relay for outgoing mail; unset keeps remote mail in the outbox',
  OUTBOX_POLL_MS: 'How often the outbox job looks for outgoing mail that is due, in ms (default 5000)',
  OUTBOX_RETRY_BASE_MS:
    'Delay before the first retry of outgoing mail, in ms; doubles per attempt up to 4 h (default 60000)',
  OUTBOX_MAX_ATTEMPTS:
    'Delivery attempts of outgoing mail before a temporary failure bounces to the sender (default 15)',
  OUTBOX_LEASE_MS:
    'How long outgoing mail a process claimed is left to it, in ms: after a crash, the others deliver it once this runs out (default 600000)',
  REDIRECT_LIMIT_HOUR:
    "Messages one account's filters may redirect in a clock hour; past it mail is kept, not forwarded, and the owner told once (default 50)",
  REDIRECT_LIMIT_DAY:
    "Messages one account's filters may redirect in a day (UTC); past it mail is kept, not forwarded, and the owner told once (default 200)",
  FRAME_ANCESTORS: 'Space- or comma-separated origins allowed to embed the app in a frame (default none)',
  SESSION_TTL_HOURS: 'Session lifetime in hours (default 336)',
  AUTH_RATE_LIMIT: 'Requests per minute per IP on sign-in routes (default 30)',
  PASSWORD_CODES_PER_DAY:
    'Codes for the mailbox password an account may ask for in 24 hours (default 10); then the flow is locked until the 24 hours from the first are over',
  ENCRYPTED_MESSAGE_TTL_DAYS:
    'Days a password-encrypted message can be opened before it expires (default 28)',
  ENCRYPTED_MESSAGE_MAX_ATTEMPTS:
    'Wrong passwords before an encrypted message is locked and its sender told (default 5)',
  DECRYPT_RATE_LIMIT: 'Decrypt requests per minute per IP, signed in or not (default 20)',
  IMAGE_PROXY_ALLOW_PRIVATE: 'The older name of OUTBOUND_ALLOW_PRIVATE, still read when that is unset',
  OUTBOUND_ALLOW_PRIVATE:
    "true, or the addresses/CIDR ranges among loopback and private ones the server may reach for others: the image proxy's remote images, a domain's verification page (default false: none)",
  IMAGE_PROXY_MAX_SIZE: 'Largest remote image the image proxy passes on, in bytes (default 10485760)',
  IMAGE_PROXY_TIMEOUT_MS:
    'Time the image proxy gives a remote image, redirects included, in ms (default 10000)',
  IMAGE_PROXY_RATE_LIMIT: 'Remote images the image proxy fetches per minute per account (default 600)',
  SIEVE_TIME_LIMIT_MS:
    "How long one run of a member's filter script may take, in ms; a run that takes longer is stopped, the message is kept in the Inbox and the owner sees the error among the filters' errors (default 100)",
  FREE_DOMAIN_EMAILS:
    'Addresses on own domains an account keeps free; each one beyond, and every address on a public domain, is paid (default 10)',
  DOMAIN_EMAIL_PRICE: 'Price of a paid address on a domain, in units of the wallet currency (default 1)',
  COLLECTOR_POLL_MINUTES:
    'Minutes between polls of an up-to-date collector for new mail (default 5; a fraction such as 0.1 polls every 6 s, for tests)',
  MAX_COLLECTORS: 'Collectors (other IMAP mailboxes to import from) an account may have (default 10)',
  MAX_CONTACTS:
    'Contacts an account may have; adding more is refused and an import adds up to it, counting the rest (default 10000)',
  MAX_CONTACT_GROUPS:
    'Contact groups an account may have; making more is refused and an import makes up to it (default 500)',
  COLLECTOR_MESSAGE_MAX_BYTES:
    'Largest remote message a collector imports, in bytes; larger ones are skipped and counted (default 52428800)',
  COLLECTOR_AUTH_FAILURES:
    'Sign-in refusals in a row after which a collector stops and its owner is told (default 3)',
  BLOB_STORE:
    "Where blobs beyond the database's small ones live: fs (a folder under DATA_DIR, one host) or s3 (an S3-compatible bucket every node shares; default fs)",
  S3_ENDPOINT: "The S3-compatible service's URL (unset: AWS's endpoint for S3_REGION)",
  S3_BUCKET: 'The bucket for blobs; required with BLOB_STORE=s3',
  S3_REGION: "The bucket's region (default us-east-1)",
  S3_ACCESS_KEY_ID: "Access key for S3 (unset: the SDK's default credentials: environment, instance role)",
  S3_SECRET_ACCESS_KEY: 'Secret key for S3; goes with S3_ACCESS_KEY_ID',
  S3_FORCE_PATH_STYLE:
    'Address the bucket in the path (http://host/bucket/key) rather than as a host name: most self-hosted S3 servers need it (default false)',
  BLOB_GC_GRACE_HOURS:
    'Hours an unreferenced blob is kept before the collector removes it, so an ingest about to reference it is safe (default 24)',
  WALLET_API_URL:
    "Base URL of the provider's wallet API (README, The wallet); unset runs the embedded sandbox wallet at /sandbox/wallet",
  WALLET_API_KEY: 'Bearer key for the wallet API; required with WALLET_API_URL',
  WALLET_WEBHOOK_SECRET:
    "Key (at least 16 characters) of the wallet webhook's X-Wallet-Signature; required with WALLET_API_URL",
  TRUST_PROXY: 'Trust X-Forwarded-* headers from a reverse proxy (default false)',
  METRICS_TOKEN:
    'When set (at least 16 characters), GET /metrics on the public port answers a request with Authorization: Bearer <token> (anything else 401); unset, the public port has no /metrics (default: unset)',
  METRICS_PORT:
    'Port of the metrics listener, which answers GET /metrics with no token: keep it where only the scraper reaches it (default 9464; off: no listener)',
  METRICS_HOST:
    'Interface of the metrics listener (default 127.0.0.1, loopback only; 0.0.0.0 opens it to the network)',
  SHUTDOWN_DELAY_SECONDS:
    'On SIGTERM, seconds /healthz/ready answers 503 while everything still works, so a load balancer stops sending first (default 0)',
  SHUTDOWN_TIMEOUT_SECONDS:
    'On SIGTERM, seconds given to SMTP sessions, HTTP requests and jobs in progress to finish before they are cut (default 25)',
  SUPPORT_EMAIL: 'Where settings/support sends requests, as mail (default support@MAIL_DOMAIN)',
  LOG_LEVEL: 'pino log level (default info)',
  WEB_DIST_DIR: 'Folder of the built web app (default apps/web/dist)',
};

export class ConfigError extends Error {}

/** Shortest SECRET_KEY accepted: 32 characters, 256 bits when random bytes are written in base64. */
export const SECRET_KEY_MIN_LENGTH = 32;

/** SECRET_KEY, or the content of SECRET_KEY_FILE; the messages never show the secret itself. */
function readSecretKey(value: string | undefined, file: string | undefined, cwd: string): string | undefined {
  if (value !== undefined && file !== undefined) {
    throw new ConfigError('Invalid setting SECRET_KEY_FILE: set SECRET_KEY or SECRET_KEY_FILE, not both');
  }
  let name = 'SECRET_KEY';
  if (file !== undefined) {
    name = 'SECRET_KEY_FILE';
    try {
      // A trailing newline is how editors and `echo` write a file; it is not part of the secret.
      value = fs.readFileSync(path.resolve(cwd, file), 'utf8').replace(/\s+$/, '');
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? String(err);
      throw new ConfigError(
        `Invalid setting SECRET_KEY_FILE=${JSON.stringify(file)}: cannot read it (${reason})`,
      );
    }
  }
  if (value !== undefined && value.length < SECRET_KEY_MIN_LENGTH) {
    throw new ConfigError(
      `Invalid setting ${name}: the secret key must be at least ${SECRET_KEY_MIN_LENGTH} characters (it has ${value.length})`,
    );
  }
  return value;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid setting ${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`);
  }
  const e = parsed.data;
  if (e.OIDC_ISSUER && !e.OIDC_CLIENT_SECRET) {
    throw new ConfigError('Invalid setting OIDC_CLIENT_SECRET="": required when OIDC_ISSUER is set');
  }
  if (Boolean(e.SMTP_TLS_CERT) !== Boolean(e.SMTP_TLS_KEY)) {
    const missing = e.SMTP_TLS_CERT ? 'SMTP_TLS_KEY' : 'SMTP_TLS_CERT';
    throw new ConfigError(`Invalid setting ${missing}="": SMTP_TLS_CERT and SMTP_TLS_KEY go together`);
  }
  if (e.BLOB_STORE === 's3' && !e.S3_BUCKET) {
    throw new ConfigError('Invalid setting S3_BUCKET="": required when BLOB_STORE=s3');
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    const missing = e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
    throw new ConfigError(
      `Invalid setting ${missing}="": S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together`,
    );
  }
  if (e.WALLET_API_URL && (!e.WALLET_API_KEY || !e.WALLET_WEBHOOK_SECRET)) {
    const missing = e.WALLET_API_KEY ? 'WALLET_WEBHOOK_SECRET' : 'WALLET_API_KEY';
    throw new ConfigError(`Invalid setting ${missing}="": required when WALLET_API_URL is set`);
  }
  // npm runs workspace scripts inside the workspace; relative paths mean the folder npm was started from.
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR);
  const secretKey = readSecretKey(e.SECRET_KEY, e.SECRET_KEY_FILE, env.INIT_CWD ?? process.cwd());
  return {
    port: e.PORT,
    host: e.HOST,
    smtpPort: e.SMTP_PORT,
    lmtpPort: e.LMTP_PORT,
    smtpTls:
      e.SMTP_TLS_CERT && e.SMTP_TLS_KEY
        ? {
            certFile: path.resolve(env.INIT_CWD ?? process.cwd(), e.SMTP_TLS_CERT),
            keyFile: path.resolve(env.INIT_CWD ?? process.cwd(), e.SMTP_TLS_KEY),
          }
        : undefined,
    maxMessageSize: e.MAX_MESSAGE_SIZE,
    smtpMaxConnections: e.SMTP_MAX_CONNECTIONS,
    smtpMaxLargeMessages: e.SMTP_MAX_LARGE_MESSAGES,
    smtpLargeMessageSize: e.SMTP_LARGE_MESSAGE_SIZE,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    pgliteFsync: e.PGLITE_FSYNC,
    pgliteSharedBuffersMb: e.PGLITE_SHARED_BUFFERS === 'auto' ? undefined : e.PGLITE_SHARED_BUFFERS,
    pgliteGroupCommit: e.PGLITE_GROUP_COMMIT,
    secretKey,
    mailDomain: e.MAIL_DOMAIN.toLowerCase(),
    dnsServers: e.DNS_SERVERS,
    mxHost: (e.MX_HOST ?? `mx.${e.MAIL_DOMAIN}`).toLowerCase(),
    inbound: {
      auth: e.INBOUND_AUTH,
      authTimeoutMs: e.INBOUND_AUTH_TIMEOUT_MS,
      maxDkimSignatures: e.DKIM_MAX_SIGNATURES,
      dnsCacheSeconds: e.DNS_CACHE_SECONDS,
      arcTrustedSealers: e.ARC_TRUSTED_SEALERS.map((d) => d.toLowerCase()),
      protectedDomains: [
        ...new Set((e.PROTECTED_DOMAINS ?? [e.MAIL_DOMAIN, ...e.PUBLIC_DOMAINS]).map((d) => d.toLowerCase())),
      ],
      rspamd: e.RSPAMD_URL
        ? {
            url: e.RSPAMD_URL.replace(/\/+$/, ''),
            controllerUrl: (e.RSPAMD_CONTROLLER_URL ?? defaultController(e.RSPAMD_URL)).replace(/\/+$/, ''),
            password: e.RSPAMD_PASSWORD,
            timeoutMs: e.RSPAMD_TIMEOUT_MS,
          }
        : null,
      junkRetentionDays: e.JUNK_RETENTION_DAYS,
    },
    domains: {
      free: e.FREE_DOMAINS,
      price: e.DOMAIN_PRICE,
      publicDomains: [...new Set(e.PUBLIC_DOMAINS.map((d) => d.toLowerCase()))],
      siteUrl: e.DOMAIN_SITE_URL,
      spfInclude: (e.SPF_INCLUDE ?? `_spf.${e.MAIL_DOMAIN}`).toLowerCase(),
      dkimGraceDays: e.DKIM_GRACE_DAYS,
      freeEmails: e.FREE_DOMAIN_EMAILS,
      emailPrice: e.DOMAIN_EMAIL_PRICE,
    },
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE ?? e.IMAGE_PROXY_ALLOW_PRIVATE ?? [],
    contacts: { max: e.MAX_CONTACTS, maxGroups: e.MAX_CONTACT_GROUPS },
    collectors: {
      pollMinutes: e.COLLECTOR_POLL_MINUTES,
      max: e.MAX_COLLECTORS,
      messageMaxBytes: e.COLLECTOR_MESSAGE_MAX_BYTES,
      authFailuresToStop: e.COLLECTOR_AUTH_FAILURES,
    },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    oidc: {
      issuer: e.OIDC_ISSUER?.replace(/\/+$/, ''),
      clientId: e.OIDC_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
      memberIdClaim: e.OIDC_MEMBER_ID_CLAIM,
      passportLevelClaim: e.OIDC_PASSPORT_LEVEL_CLAIM,
      scopes: e.OIDC_SCOPES,
    },
    smtpRelayUrl: e.SMTP_RELAY_URL,
    redirectLimits: { hour: e.REDIRECT_LIMIT_HOUR, day: e.REDIRECT_LIMIT_DAY },
    timeControls: {
      scheduledMax: e.SCHEDULED_MAX,
      pollMs: e.DUE_POLL_MS,
      undoSendDefault: e.UNDO_SEND_DEFAULT_SECONDS,
    },
    outbox: {
      pollMs: e.OUTBOX_POLL_MS,
      retryBaseMs: e.OUTBOX_RETRY_BASE_MS,
      maxAttempts: e.OUTBOX_MAX_ATTEMPTS,
      leaseMs: e.OUTBOX_LEASE_MS,
    },
    frameAncestors: e.FRAME_ANCESTORS.map((u) => new URL(u).origin),
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    authRateLimit: e.AUTH_RATE_LIMIT,
    passwordCodesPerDay: e.PASSWORD_CODES_PER_DAY,
    encrypted: {
      ttlMs: e.ENCRYPTED_MESSAGE_TTL_DAYS * 86_400_000,
      maxAttempts: e.ENCRYPTED_MESSAGE_MAX_ATTEMPTS,
      rateLimit: e.DECRYPT_RATE_LIMIT,
    },
    sieveTimeLimitMs: e.SIEVE_TIME_LIMIT_MS,
    imageProxy: {
      allowPrivate: e.OUTBOUND_ALLOW_PRIVATE ?? e.IMAGE_PROXY_ALLOW_PRIVATE ?? [],
      maxBytes: e.IMAGE_PROXY_MAX_SIZE,
      timeoutMs: e.IMAGE_PROXY_TIMEOUT_MS,
      rateLimit: e.IMAGE_PROXY_RATE_LIMIT,
    },
    blobs: {
      store: e.BLOB_STORE,
      s3:
        e.BLOB_STORE === 's3'
          ? {
              endpoint: e.S3_ENDPOINT,
              bucket: e.S3_BUCKET!,
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
            }
          : null,
      gcGraceMs: e.BLOB_GC_GRACE_HOURS * 3600_000,
    },
    wallet: {
      apiUrl: e.WALLET_API_URL?.replace(/\/+$/, ''),
      apiKey: e.WALLET_API_KEY,
      webhookSecret: e.WALLET_WEBHOOK_SECRET,
    },
    trustProxy: e.TRUST_PROXY,
    metrics: {
      listener: e.METRICS_PORT === 'off' ? null : { host: e.METRICS_HOST, port: e.METRICS_PORT },
      ...(e.METRICS_TOKEN ? { token: e.METRICS_TOKEN } : {}),
    },
    shutdown: { delayMs: e.SHUTDOWN_DELAY_SECONDS * 1000, timeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000 },
    supportEmail: e.SUPPORT_EMAIL ?? `support@${e.MAIL_DOMAIN.toLowerCase()}`,
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR
      ? path.resolve(env.INIT_CWD ?? process.cwd(), e.WEB_DIST_DIR)
      : path.join(serverPackage().dir, '../web/dist'),
  };
}

/** Rspamd's controller beside its normal worker: the same host, port 11334. */
function defaultController(url: string): string {
  const u = new URL(url);
  u.port = '11334';
  return u.origin;
}
