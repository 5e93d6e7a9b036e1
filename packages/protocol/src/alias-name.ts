/**
 * The alias name rules of SPEC §5, shared by the server and the web client. A module of its own, apart from
 * validation.ts, so the web's mail shell (which uses validation.ts) does not carry them: only the lazy aliases
 * screen does (DESIGN §5 budget).
 */
import { ALIAS_NAME_MAX_LENGTH, ALIAS_NAME_MIN_LENGTH } from './constants.js';
import type { ErrorCode } from './errors.js';
import { isMemberId } from './validation.js';

/**
 * Names no one may take as an alias: mail-system and role addresses (RFC 2142 and the usual ones), system accounts,
 * and the names of the product and of the provider's services, which users would trust as the service speaking.
 * Compared without case and without the separators '.', '_' and '-' ("No.Reply" and "mailer_daemon" are refused).
 */
export const ALIAS_STOPLIST = [
  // Role addresses (RFC 2142) and the ones services write from.
  'abuse',
  'admin',
  'administrator',
  'billing',
  'bounce',
  'bounces',
  'contact',
  'do-not-reply',
  'helpdesk',
  'help',
  'hostmaster',
  'info',
  'list',
  'listmaster',
  'mailer-daemon',
  'marketing',
  'no-reply',
  'noc',
  'noreply',
  'notifications',
  'postmaster',
  'privacy',
  'sales',
  'security',
  'support',
  'webmaster',
  // System accounts and protocol names.
  'daemon',
  'ftp',
  'imap',
  'mail',
  'mailer',
  'news',
  'nobody',
  'operator',
  'pop',
  'root',
  'smtp',
  'sys',
  'sysadmin',
  'system',
  'usenet',
  'uucp',
  'www',
  // The product and the provider's services.
  'mailroom',
  'payments',
  'sandbox',
  'wallet',
] as const;

const stopListKeys = new Set(ALIAS_STOPLIST.map((name) => stopListKey(name)));

/** The form a name is compared with the stop list in: lowercase, separators removed. */
function stopListKey(name: string): string {
  return name.toLowerCase().replace(/[._-]/g, '');
}

export type AliasNameError = Extract<
  ErrorCode,
  'specify_3_30' | 'invalid_alias_member_id' | 'invalid_alias_purse' | 'alias_stoplist' | 'invalid_alias'
>;

const aliasCharactersPattern = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/i;

/**
 * Checks the local part of a new alias (no '@domain'); null when it may be created.
 * Checked in order: length, a bare member ID, a purse number (one letter and 12 digits), the stop list
 * (without case or separators), then the characters an address may carry (latin letters, digits, '.', '_', '-',
 * starting and ending with a letter or digit, no '..'). `stopList: false` skips the stop list: an address on a
 * member's own domain (sales@their-company.example) names nothing of the service's.
 */
export function validateAliasName(name: string, options: { stopList?: boolean } = {}): AliasNameError | null {
  const length = [...name].length;
  if (length < ALIAS_NAME_MIN_LENGTH || length > ALIAS_NAME_MAX_LENGTH) return 'specify_3_30';
  if (isMemberId(name)) return 'invalid_alias_member_id';
  if (/^[a-z]\d{12}$/i.test(name)) return 'invalid_alias_purse';
  if (options.stopList !== false && stopListKeys.has(stopListKey(name))) return 'alias_stoplist';
  if (!aliasCharactersPattern.test(name) || name.includes('..')) return 'invalid_alias';
  return null;
}
