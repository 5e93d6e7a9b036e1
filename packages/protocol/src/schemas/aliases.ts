import { z } from 'zod';

/**
 * Aliases, free and paid (SPEC §1: one free alias, unlimited paid aliases at PAID_ALIAS_PRICE unit each; §4 statuses;
 * §5 the name rules of validateAliasName; §7 user/aliases…, user/aliases/paid…). An alias is an address on one of the
 * service's own domains that delivers into the account. Another account's id is alias_not_found, never data.
 *
 * Rules on every create (free or paid), in order, each with its catalogue code: the name rules (validateAliasName:
 * specify_3_30, invalid_alias_member_id, invalid_alias_purse, alias_stoplist, invalid_alias); a passport of at least
 * formal level (passport_level_required); the name free across the service, case-insensitively, counting names
 * reserved by unpaid invoices and addresses of accounts (duplicate_aliases). A free alias when the account already has
 * one: max_count_aliases. A paid alias while another is unpaid or being paid: alias_max_count_paying.
 */

/** An alias's state (SPEC §4): unpaid (invoice issued), paying (payment being checked), succeed (active), failed. */
export const aliasStatusValues = ['unpaid', 'paying', 'succeed', 'failed'] as const;
export type AliasStatus = (typeof aliasStatusValues)[number];

export const aliasKindValues = ['free', 'paid'] as const;
export type AliasKind = (typeof aliasKindValues)[number];

/** An invoice of the provider's wallet as the member sees it. Amount as a decimal string ('1.00'). */
/** refund_due, refunded: paid after it had expired (or was withdrawn), for what could no longer be had: paid back. */
export const invoiceStatusValues = [
  'unpaid',
  'paid',
  'rejected',
  'expired',
  'cancelled',
  'refund_due',
  'refunded',
] as const;
export type InvoiceStatus = (typeof invoiceStatusValues)[number];
export const invoiceSchema = z.object({
  /** The wallet's invoice id (what the sandbox page and `mailroom wallet pay` take). */
  id: z.string(),
  amount: z.string(),
  currency: z.string(),
  status: z.enum(invoiceStatusValues),
  /** Where the member pays it (the wallet application's link; the sandbox page by default); null once settled. */
  pay_url: z.string().nullable(),
  created_at: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** One alias on the settings/aliases screen: active ones and paid ones on their way. */
export const aliasEntrySchema = z.object({
  id: z.number().int(),
  email: z.string(),
  kind: z.enum(aliasKindValues),
  status: z.enum(aliasStatusValues),
  /** Whether the alias has password access (an alias-only user may sign in with it: PUT user/aliases/update_access). */
  password_access: z.boolean(),
  created_at: z.string(),
});
export type AliasEntry = z.infer<typeof aliasEntrySchema>;

/** GET user/aliases: every alias of the account, oldest first, whatever its status. */
export const aliasesResponseSchema = z.object({
  aliases: z.array(aliasEntrySchema),
  /** Whether the free alias is still to be taken. */
  free_available: z.boolean(),
  /** The domain aliases are created on (the part after '@'). */
  domain: z.string(),
});
export type AliasesResponse = z.infer<typeof aliasesResponseSchema>;

/** POST user/aliases (the free alias) and POST user/aliases/paid: the local part only (no '@'). */
export const aliasCreateSchema = z.object({
  name: z.string().trim().min(1, 'specify_3_30').max(64, 'specify_3_30'),
});
export type AliasCreate = z.infer<typeof aliasCreateSchema>;
export const aliasResponseSchema = z.object({ alias: aliasEntrySchema });
export type AliasResponse = z.infer<typeof aliasResponseSchema>;

/** A paid alias with its invoice (SPEC §7 GET user/aliases/paid: paid_aliases). */
export const paidAliasSchema = aliasEntrySchema.extend({ invoice: invoiceSchema });
export type PaidAlias = z.infer<typeof paidAliasSchema>;
export const paidAliasesResponseSchema = z.object({ paid_aliases: z.array(paidAliasSchema) });
export type PaidAliasesResponse = z.infer<typeof paidAliasesResponseSchema>;
/**
 * POST user/aliases/paid (the name reserved, an invoice of PAID_ALIAS_PRICE issued: status unpaid) and
 * POST user/aliases/paid/{id}/check_payment ('I have already paid': the wallet is asked; paid → succeed and the alias
 * receives mail; still unpaid → error pay_invoice; rejected or expired → failed and error pay_invoice_cancel).
 */
export const paidAliasResponseSchema = z.object({ paid_alias: paidAliasSchema });
export type PaidAliasResponse = z.infer<typeof paidAliasResponseSchema>;

/**
 * DELETE user/aliases/{id}: the alias stops receiving mail at once (RCPT refused with 550); its mail stays in the
 * mailbox; its password access ends with it (open sessions close). An alias whose payment is being checked:
 * alias_cant_delete. DELETE user/aliases/paid/{id}: an unpaid or failed one is given up (its invoice cancelled at the
 * wallet, the name free again); a succeeded one is deleted like DELETE user/aliases/{id}; paying:
 * error_alias_status_paying.
 */

/** Password access sets and passwords (SPEC §5 "passwords must match": passwords_do_not_match). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, 'password_too_short')
  .max(PASSWORD_MAX_LENGTH, 'password_too_long');

/**
 * PUT user/aliases/update_access: grant or change password access to one of the account's aliases (`email` the full
 * address: alias_has_no_at without '@', alias_not_found when not an active alias of the account), or remove it
 * (`password: null`; its open sessions end). Stored with a memory-hard hash. More than 5 changes of one alias within
 * an hour: alias_access_limit.
 */
export const aliasAccessUpdateSchema = z.union([
  z.object({
    email: z.string().max(320),
    password: passwordSchema,
    password_confirm: z.string().max(PASSWORD_MAX_LENGTH),
  }),
  z.object({ email: z.string().max(320), password: z.null() }),
]);
export type AliasAccessUpdate = z.infer<typeof aliasAccessUpdateSchema>;
