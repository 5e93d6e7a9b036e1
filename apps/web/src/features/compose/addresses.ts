import {
  COMPOSE_MODE,
  isEmail,
  type Account,
  type ComposeMode,
  type Mail,
  type MailAddress,
  type OutgoingAddress,
} from '@mailroom/protocol';

/** A piece of a recipient field: a valid address becomes a tag, an invalid piece stays flagged (SPEC §5). */
export interface RecipientTag {
  email: string;
  name: string;
  valid: boolean;
}

export function toTag(address: MailAddress | OutgoingAddress): RecipientTag {
  const email = address.email.trim();
  return { email, name: address.name.trim(), valid: isEmail(email) };
}

// 'Ann Lee <ann@x.org>' or '"Lee, Ann" <ann@x.org>' (a name may not hold '@', so a bare address before a named
// one is not swallowed into its name), else any run of characters up to a space, comma or semicolon.
const PIECE = /(?:"([^"]*)"\s*|([^\s,;<>"@][^,;<>"@]*?)\s*)?<([^<>]*)>|([^\s,;<>]+)|[<>]+/g;

/**
 * Splits what was typed into a recipient field (SPEC §5: on spaces and commas; semicolons too, as pasted lists
 * use them). 'Name <address>' keeps the name. Pieces that are not addresses come back flagged, not dropped.
 */
export function splitRecipients(text: string): RecipientTag[] {
  const tags: RecipientTag[] = [];
  for (const match of text.matchAll(PIECE)) {
    const [whole, quoted, bare, bracketed, plain] = match;
    if (bracketed !== undefined) {
      tags.push(toTag({ email: bracketed, name: (quoted ?? bare ?? '').trim() }));
    } else if (plain !== undefined) {
      tags.push(toTag({ email: plain.replace(/^mailto:/i, ''), name: '' }));
    } else if (whole.trim()) {
      tags.push({ email: whole.trim(), name: '', valid: false });
    }
  }
  return tags;
}

/** The same address twice in one field is one recipient; flagged pieces are kept as typed. */
export function mergeTags(current: readonly RecipientTag[], added: readonly RecipientTag[]): RecipientTag[] {
  const seen = new Set(current.filter((tag) => tag.valid).map((tag) => tag.email.toLowerCase()));
  const result = [...current];
  for (const tag of added) {
    if (tag.valid) {
      const key = tag.email.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
    }
    result.push(tag);
  }
  return result;
}

/** A sender identity offered in From: a profile (with its signature) or an address of the account. */
export interface FromOption {
  /** Unique among the options: 'profile:<id>', 'alias:<id>' or 'primary'. */
  id: string;
  email: string;
  name: string;
  signature: string;
}

/**
 * From choices (SPEC §3 Account): profiles first, the default one at the top, then the primary address and the
 * aliases that no profile already covers. An alias-only session may send only as its alias (SPEC §6).
 */
export function fromOptions(account: Account, aliasOnly: string | null): FromOption[] {
  const profiles = [...account.profiles].sort((a, b) => Number(b.default) - Number(a.default));
  const options: FromOption[] = profiles.map((profile) => ({
    id: `profile:${profile.id}`,
    email: profile.email,
    name: profile.name,
    signature: profile.signature,
  }));
  const covered = new Set(options.map((option) => option.email.toLowerCase()));
  const add = (id: string, email: string) => {
    if (covered.has(email.toLowerCase())) return;
    covered.add(email.toLowerCase());
    options.push({ id, email, name: '', signature: '' });
  };
  add('primary', account.email);
  for (const alias of account.aliases) add(`alias:${alias.id}`, alias.email);
  if (aliasOnly === null) return options;
  return options.filter((option) => option.email.toLowerCase() === aliasOnly.toLowerCase());
}

function without(addresses: readonly MailAddress[], skip: Set<string>): MailAddress[] {
  const result: MailAddress[] = [];
  for (const address of addresses) {
    const key = address.email.toLowerCase();
    if (!address.email || skip.has(key)) continue;
    skip.add(key);
    result.push(address);
  }
  return result;
}

export interface ReplyRecipients {
  to: MailAddress[];
  cc: MailAddress[];
}

/**
 * Who a reply goes to. Reply: the Reply-To, else the sender; when that is the user (answering their own sent
 * message) the original recipients instead. Reply-all adds the original To and Cc, without the user's own
 * addresses and without repeats.
 */
export function replyRecipients(mode: ComposeMode, message: Mail, own: Set<string>): ReplyRecipients {
  if (mode !== COMPOSE_MODE.REPLY && mode !== COMPOSE_MODE.REPLY_ALL) return { to: [], cc: [] };
  const author = message.fields['reply-to'].length > 0 ? message.fields['reply-to'] : message.fields.from;
  const fromSelf = author.length > 0 && author.every((address) => own.has(address.email.toLowerCase()));
  const primary = fromSelf ? message.fields.to : author;
  if (mode === COMPOSE_MODE.REPLY) return { to: without(primary, new Set()), cc: [] };
  const skip = new Set(own);
  const to = without([...primary, ...message.fields.to], skip);
  const cc = without(message.fields.cc, skip);
  return { to, cc };
}

/**
 * The From a reply starts with: the user's address the message was sent to (an alias keeps answering as that
 * alias), else the first option (the default profile).
 */
export function replyFrom(options: readonly FromOption[], message: Mail | undefined): FromOption | undefined {
  if (message) {
    const received = [...message.fields.to, ...message.fields.cc].map((a) => a.email.toLowerCase());
    const match = options.find((option) => received.includes(option.email.toLowerCase()));
    if (match) return match;
  }
  return options[0];
}
