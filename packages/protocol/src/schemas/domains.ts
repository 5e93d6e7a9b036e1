import { z } from 'zod';
import { invoiceSchema, passwordSchema, PASSWORD_MAX_LENGTH } from './aliases.js';
import { memberIdSchema } from './common.js';

/**
 * Own domains, addresses on them, and delegation (issue 17; SPEC §1, §2 settings/domains…, d_emails, access; §4
 * statuses; §5 'delete' typed to remove, passwords must match, passport of at least formal level; §7 user/domains…).
 *
 * A domain is added (status prepared), verified by a DNS TXT record or a meta tag on its web site (`confirm`: waiting
 * while the check runs, processing when a re-check runs; failed with a reason; succeed once verified), then hosts mail:
 * addresses on it deliver into the account, mail from them is signed with the domain's DKIM keys. Domains beyond
 * FREE_DOMAINS, and addresses beyond the free number or on the service's public domains, are paid through the wallet
 * (unpaid until paid, paying while checked — the same invoice flow as paid aliases). Another account's id is
 * entity_not_found, never data.
 */

/** SPEC §4: prepared = not confirmed; waiting/processing = being confirmed; failed; succeed = active; unpaid/paying. */
export const domainStatusValues = [
  'prepared',
  'waiting',
  'processing',
  'failed',
  'succeed',
  'unpaid',
  'paying',
] as const;
export type DomainStatus = (typeof domainStatusValues)[number];

/** How ownership is proven: a TXT record `mailroom-verification=<token>` on the domain, or a meta tag on its site. */
export const verificationMethodValues = ['dns', 'meta'] as const;
export type VerificationMethod = (typeof verificationMethodValues)[number];

/**
 * Why a verification failed, shown beside the domain: record_not_found (no TXT record with our prefix, or no meta tag),
 * wrong_token (ours is there with another token: `found` says what), site_unreachable (no answer, a timeout, a TLS or
 * HTTP error, too big), site_forbidden (the name points at a private or loopback address, or a redirect leads there:
 * refused like the image proxy refuses it), dns_error (the resolver failed), expired (not verified within 7 days).
 */
export const verificationFailureValues = [
  'record_not_found',
  'wrong_token',
  'site_unreachable',
  'site_forbidden',
  'dns_error',
  'expired',
] as const;
export type VerificationFailure = (typeof verificationFailureValues)[number];

export const domainVerificationSchema = z.object({
  /** The token the record or tag must carry. */
  token: z.string(),
  /** The TXT record to publish: its name (the domain) and value (`mailroom-verification=<token>`). */
  txt_name: z.string(),
  txt_value: z.string(),
  /** The tag to put in the <head> of https://<domain>/ . */
  meta_tag: z.string(),
  /** The page fetched for the meta tag. */
  url: z.string(),
});
export type DomainVerification = z.infer<typeof domainVerificationSchema>;

export const domainSchema = z.object({
  id: z.number().int(),
  /** The name in ASCII (an IDN in punycode: xn--…), as DNS knows it. */
  name: z.string(),
  /** The name as people write it (Unicode for an IDN; else the same as name). */
  display_name: z.string(),
  status: z.enum(domainStatusValues),
  /** The method of the last confirm (null until the first). */
  method: z.enum(verificationMethodValues).nullable(),
  verification: domainVerificationSchema,
  /** Why the last verification failed (null unless status is failed). */
  failure: z
    .object({
      reason: z.enum(verificationFailureValues),
      /** What was found instead (a TXT value, an HTTP status…), for the user to compare. */
      found: z.string().nullable(),
    })
    .nullable(),
  verified_at: z.string().nullable(),
  checked_at: z.string().nullable(),
  created_at: z.string(),
  /** Whether this domain is beyond the free number (its invoice then decides unpaid/paying). */
  paid: z.boolean(),
  invoice: invoiceSchema.nullable(),
  /** The address that receives mail to any unknown name on the domain (null: unknown names are refused). */
  catch_all_email_id: z.number().int().nullable(),
  emails_count: z.number().int(),
});
export type Domain = z.infer<typeof domainSchema>;

/** GET user/domains: the account's domains, oldest first. */
export const domainsResponseSchema = z.object({ domains: z.array(domainSchema) });
export type DomainsResponse = z.infer<typeof domainsResponseSchema>;
export const domainResponseSchema = z.object({ domain: domainSchema });
export type DomainResponse = z.infer<typeof domainResponseSchema>;

/**
 * POST user/domains {name}: a public DNS name (letters, digits, hyphens, at least two labels, a known-looking top
 * label, no IP literal; an IDN is accepted in Unicode and stored in punycode): invalid_domain otherwise; one the
 * service hosts (its mail domain, a public domain): domain_hosted; one another account (or this one) claimed and has
 * not removed: duplicate_domains. Needs a passport of at least formal level (passport_level_required). A domain beyond
 * FREE_DOMAINS starts unpaid with an invoice (one unpaid or paying at a time: error_domain_status_paying).
 */
export const domainCreateSchema = z.object({
  name: z.string().trim().min(1, 'invalid_domain').max(253, 'invalid_domain'),
});
export type DomainCreate = z.infer<typeof domainCreateSchema>;

/**
 * POST user/domains/{id}/confirm {method}: starts verification (waiting; the answer may already be succeed or failed).
 * POST user/domains/{id}/check: runs it again with the method last used. An unpaid domain: error_domain_status_paying.
 */
export const domainConfirmSchema = z.object({ method: z.enum(verificationMethodValues) });
export type DomainConfirm = z.infer<typeof domainConfirmSchema>;

/** DELETE user/domains/{id}?confirm=delete: the word typed (SPEC §5; anything else: delete_word_required). */
export const domainDeleteQuerySchema = z.object({ confirm: z.string().max(32).optional() });
export type DomainDeleteQuery = z.infer<typeof domainDeleteQuerySchema>;
export const DOMAIN_DELETE_WORD = 'delete';

/**
 * The DNS health of a verified (or verifying) domain, record by record, found against expected (GET user/domains/{id}).
 * mx: the domain's MX points at the service (without it no mail arrives; creating or confirming an address while it
 * points elsewhere is invalid_domain_for_mail_server). spf: a `v=spf1` record including the service. dkim: each active
 * selector's TXT record holds its public key. dmarc: `_dmarc.<domain>` has a `v=DMARC1` record. verification: the TXT
 * record or meta tag still there. The screen says in one sentence what each missing one means (texts in the client).
 */
export const dnsRecordKindValues = ['verification', 'mx', 'spf', 'dkim', 'dmarc'] as const;
export type DnsRecordKind = (typeof dnsRecordKindValues)[number];
export const dnsCheckSchema = z.object({
  kind: z.enum(dnsRecordKindValues),
  /** The record type and name to publish (e.g. TXT sel._domainkey.example.com). */
  type: z.enum(['TXT', 'MX']),
  name: z.string(),
  expected: z.string(),
  /** What the resolver answered for that name and type (empty: nothing). */
  found: z.array(z.string()),
  ok: z.boolean(),
  /**
   * The record to publish in place of what was found, where what was found is kept and changed (spf: the one SPF
   * record with the service's include added; a domain has at most one SPF record, RFC 7208 §3.2).
   */
  suggested: z.string().optional(),
});
export type DnsCheck = z.infer<typeof dnsCheckSchema>;

/** A DKIM key of a domain: RSA-2048 and Ed25519 are made together, on a selector with the date (mr20261124r, …e). */
export const dkimAlgorithmValues = ['rsa', 'ed25519'] as const;
export type DkimAlgorithm = (typeof dkimAlgorithmValues)[number];
/** active: signs outgoing mail; next: published first during a rotation, signs once promoted; retiring: no longer signs, kept published for the grace period. */
export const dkimKeyStateValues = ['active', 'next', 'retiring'] as const;
export type DkimKeyState = (typeof dkimKeyStateValues)[number];
export const domainDkimKeySchema = z.object({
  selector: z.string(),
  algorithm: z.enum(dkimAlgorithmValues),
  state: z.enum(dkimKeyStateValues),
  /** The TXT record's name (`<selector>._domainkey.<domain>`). */
  dns_name: z.string(),
  /** Its value split into strings of at most 255 characters, as a zone file writes them. */
  dns_value: z.array(z.string()),
  created_at: z.string(),
  /** When a retiring key's record may go. */
  retire_at: z.string().nullable(),
});
export type DomainDkimKey = z.infer<typeof domainDkimKeySchema>;

/** GET user/domains/{id}: the domain with its DNS health, DKIM keys and a zone snippet to copy. */
export const domainDetailResponseSchema = z.object({
  domain: domainSchema,
  dns: z.array(dnsCheckSchema),
  dkim: z.array(domainDkimKeySchema),
  /** Every record to publish, in zone-file form. */
  zone: z.string(),
});
export type DomainDetailResponse = z.infer<typeof domainDetailResponseSchema>;

/** GET user/domains/public: the service's own domains on which members may take (paid) addresses. */
export const publicDomainSchema = z.object({ id: z.number().int(), name: z.string() });
export const publicDomainsResponseSchema = z.object({ domains: z.array(publicDomainSchema) });
export type PublicDomainsResponse = z.infer<typeof publicDomainsResponseSchema>;

/** An address on a domain (SPEC §3 email_id, domain_id). */
export const domainEmailSchema = z.object({
  id: z.number().int(),
  domain_id: z.number().int(),
  email: z.string(),
  /**
   * prepared: made, not receiving yet (POST …/emails/{email_id}/confirm checks the MX and activates it); succeed:
   * receives and sends; unpaid/paying: a paid address waiting for its invoice; failed: its invoice was rejected.
   */
  status: z.enum(domainStatusValues),
  catch_all: z.boolean(),
  password_access: z.boolean(),
  /** The member it is delegated to (null: none). */
  delegate: z.object({ member_id: memberIdSchema, name: z.string() }).nullable(),
  paid: z.boolean(),
  invoice: invoiceSchema.nullable(),
  created_at: z.string(),
});
export type DomainEmail = z.infer<typeof domainEmailSchema>;
/** GET user/domains/{id}/emails: the account's addresses on that domain; GET user/domains/emails: on every domain. */
export const domainEmailsResponseSchema = z.object({ emails: z.array(domainEmailSchema) });
export type DomainEmailsResponse = z.infer<typeof domainEmailsResponseSchema>;
export const domainEmailResponseSchema = z.object({ email: domainEmailSchema });
export type DomainEmailResponse = z.infer<typeof domainEmailResponseSchema>;

/**
 * POST user/domains/{id}/emails {name, catch_all?}: the local part, by the alias name rules (validateAliasName: the
 * stop list too); on a domain not yet verified: domain_not_verified; taken on that domain: duplicate_aliases.
 * PUT user/domains/{id}/emails/{email_id} {catch_all}: makes it (or stops it being) the domain's catch-all.
 * DELETE …/{email_id}: the address stops receiving (RCPT 550), its mail stays, its password access and delegation end.
 */
export const domainEmailCreateSchema = z.object({
  name: z.string().trim().min(1, 'specify_3_30').max(64, 'specify_3_30'),
  catch_all: z.boolean().optional(),
});
export type DomainEmailCreate = z.infer<typeof domainEmailCreateSchema>;
export const domainEmailUpdateSchema = z.object({ catch_all: z.boolean() });
export type DomainEmailUpdate = z.infer<typeof domainEmailUpdateSchema>;

/**
 * PATCH user/domains/{id}/emails/{email_id} {member_id}: delegate the address to that member (invalid_member_id2 when no
 * such member has signed in; delegate_self for oneself); {member_id: null}: remove the delegation — the delegate's open
 * sessions in it end at once. A delegate cannot delegate further (the address is not theirs: entity_not_found).
 */
export const domainEmailDelegateSchema = z.object({ member_id: memberIdSchema.nullable() });
export type DomainEmailDelegate = z.infer<typeof domainEmailDelegateSchema>;

/**
 * Password access to an address on a domain (settings/access): set twice, must match (passwords_do_not_match), or
 * removed (null). The address-only user signs in at /auth/pw/login with the full address.
 */
export const domainEmailAccessSchema = z.union([
  z.object({ password: passwordSchema, password_confirm: z.string().max(PASSWORD_MAX_LENGTH) }),
  z.object({ password: z.null() }),
]);
export type DomainEmailAccess = z.infer<typeof domainEmailAccessSchema>;

/** settings/d_emails: the addresses other members delegated to this one (GET user/delegated-emails). */
export const delegatedEmailSchema = z.object({
  email: z.string(),
  owner: z.object({ member_id: memberIdSchema, name: z.string() }),
  since: z.string(),
});
export type DelegatedEmail = z.infer<typeof delegatedEmailSchema>;
export const delegatedEmailsResponseSchema = z.object({ emails: z.array(delegatedEmailSchema) });
export type DelegatedEmailsResponse = z.infer<typeof delegatedEmailsResponseSchema>;

/**
 * POST /auth/delegated {email}: the session opens the owner's mailbox held to that one address (what a password-access
 * session of the address sees and may do; the delegate stays the actor, as with impersonation), recorded in both auth
 * logs; not delegated to this member: forbidden. POST /auth/impersonate/end returns to one's own mailbox.
 */
export const openDelegatedSchema = z.object({ email: z.string().max(320) });
export type OpenDelegated = z.infer<typeof openDelegatedSchema>;
