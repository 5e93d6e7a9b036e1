import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { FilterActionsRequest, SendFilterActions } from '../delivery/index.js';
import { getSettings, requireAccount } from '../accounts/index.js';
import { isHostedDomain, senderAddressesOf, srsForward, srsKeyOf, srsReverse } from '../addresses/index.js';
import { transact } from '../core/db/index.js';
import { sendNotice } from '../mailbox/index.js';
import {
  autoReplyRefusal,
  claimRedirect,
  claimVacationReply,
  headerFieldsOf,
  redirectRefusal,
  type OutgoingAction,
  type RedirectClaim,
} from '../filters/index.js';
import { buildBounce, headerBlock } from './bounce.js';
import { queueOutgoing, wakeOutbox, type SendingDeps } from './outbox.js';
import { arcSealForward } from './arc-seal.js';

/** The loop header a redirect adds: the address whose filter redirected the message. */
export const redirectedFromHeader = 'X-Mailroom-Redirected-From';

/** A message redirected this many times by our filters (any accounts) is not redirected again. */
const maxRedirectHops = 8;

type Vacation = Extract<OutgoingAction, { type: 'vacation' }>;

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

function headerValue(raw: Buffer, name: string): string | null {
  const field = headerFieldsOf(raw).find((f) => f.name.toLowerCase() === name.toLowerCase());
  return field ? field.value.replace(/\r?\n[ \t]+/g, ' ').trim() : null;
}

const messageIdOf = (raw: Buffer) => /<([^<>\s]+)>/.exec(headerValue(raw, 'Message-ID') ?? '')?.[1] ?? null;

/**
 * What a filter asks to send, through the outbox (so it is retried, bounced and DKIM-signed like any mail):
 * redirect → the message as received, with our loop header on top, from our SRS address for the original envelope
 * sender (RFC 5321 §3.9: we are the sender now), never for spam or mail that failed DMARC, and within the account's
 * caps per hour and day (past one: kept, not sent, the owner told once for that period); reject and
 * ereject → a DSN to the envelope sender; vacation → a reply to the envelope sender, once per sender and handle
 * per period, never to automatic, bulk or list mail. A refused one is an error of the filter, recorded for the user.
 */
export function filterActionSender(deps: SendingDeps): SendFilterActions {
  return async (request) => {
    const problems: string[] = [];
    // Mail another mailbox here forwarded comes from our SRS address: a reply or a DSN goes to the sender it stands for.
    const srs = srsReverse(srsKeyOf(deps.secrets), request.envelopeFrom, deps.config.mailDomain);
    const answered = srs.kind === 'valid' ? { ...request, envelopeFrom: srs.original } : request;
    for (const action of request.actions) {
      const problem =
        action.type === 'redirect'
          ? await redirect(deps, request, action.address)
          : action.type === 'vacation'
            ? await vacation(deps, answered, action)
            : await reject(deps, answered, action.reason);
      if (problem) problems.push(problem);
    }
    wakeOutbox();
    if (problems.length) throw new Error(problems.join('; '));
  };
}

async function queue(
  deps: SendingDeps,
  request: FilterActionsRequest,
  raw: Buffer,
  envelopeFrom: string,
  recipient: string,
): Promise<void> {
  const blob = await deps.blobs.put(raw);
  const local = await isHostedDomain(deps.db, deps.config, domainOf(recipient));
  await transact(deps.db, (trx) =>
    queueOutgoing(trx, [
      {
        account_id: request.accountId,
        blob_hash: blob.hash,
        size: blob.size,
        message_id: messageIdOf(raw),
        envelope_from: envelopeFrom,
        recipient,
        local,
      },
    ]),
  );
}

async function redirect(
  deps: SendingDeps,
  request: FilterActionsRequest,
  address: string,
): Promise<string | null> {
  const marks = headerFieldsOf(request.raw).filter(
    (f) => f.name.toLowerCase() === redirectedFromHeader.toLowerCase(),
  );
  if (marks.some((f) => f.value.trim().toLowerCase() === request.recipient.toLowerCase()))
    return `redirect to ${address}: this message was redirected here by this mailbox already (a loop)`;
  if (marks.length >= maxRedirectHops)
    return `redirect to ${address}: the message was redirected too many times`;
  const refused = redirectRefusal(request.verdict, request.junkByScript);
  if (refused) return `redirect to ${address}: ${refused}`;
  const claim = await claimRedirect(deps.db, request.accountId, deps.config.redirectLimits);
  if (!claim.ok) {
    if (claim.tell) await tellRedirectCap(deps, request.accountId, claim);
    return `redirect to ${address}: over the limit of ${claim.limit} redirected messages a ${claim.period}, so the message was kept and not forwarded`;
  }
  const marked = Buffer.concat([
    Buffer.from(`${redirectedFromHeader}: ${request.recipient}\r\n`),
    request.raw,
  ]);
  const raw = await arcSealForward(deps, marked, request.verdict);
  const sender = srsForward(srsKeyOf(deps.secrets), request.envelopeFrom, deps.config.mailDomain);
  await queue(deps, request, raw, sender, address);
  return null;
}

const capTexts = {
  en: (limit: number, period: 'hour' | 'day') => ({
    subject: 'Your filters reached the limit of forwarded mail',
    text:
      `Your filters have forwarded ${limit} messages this ${period}, the most allowed. Until the ${period} is over, ` +
      `messages your filters would forward stay in your mailbox and are not forwarded. ` +
      `The filters screen lists each message not forwarded among its errors.`,
  }),
  ru: (limit: number, period: 'hour' | 'day') => ({
    subject: 'Фильтры достигли предела пересылки',
    text:
      `Ваши фильтры уже переслали ${limit} писем за ${period === 'hour' ? 'этот час' : 'эти сутки'} — это предел. ` +
      `До конца ${period === 'hour' ? 'часа' : 'суток'} письма, которые фильтры переслали бы, остаются в вашем ящике ` +
      `и не пересылаются. Каждое такое письмо указано среди ошибок на экране фильтров.`,
  }),
};

/** One notice in the owner's Inbox, in their language, the first time a period's cap stops a redirect. */
async function tellRedirectCap(
  deps: SendingDeps,
  accountId: number,
  claim: Extract<RedirectClaim, { ok: false }>,
): Promise<void> {
  const account = await requireAccount(deps.db, accountId);
  const language = (await getSettings(deps.db, accountId)).language === 'ru' ? 'ru' : 'en';
  const { subject, text } = capTexts[language](claim.limit, claim.period);
  await sendNotice(deps, deps.config.mailDomain, accountId, {
    to: account.email,
    subject,
    text: `${text}\n`,
  });
}

async function reject(
  deps: SendingDeps,
  request: FilterActionsRequest,
  reason: string,
): Promise<string | null> {
  // Nobody to tell: a bounce is never answered with another.
  if (!request.envelopeFrom) return null;
  const raw = await buildBounce({
    mailDomain: deps.config.mailDomain,
    sender: request.envelopeFrom,
    failure: { recipient: request.recipient, status: '5.7.1', diagnostic: reason, diagnosticType: 'x-local' },
    originalHeaders: headerBlock(request.raw),
    originalMessageId: messageIdOf(request.raw),
    arrivalDate: new Date(),
  });
  await queue(deps, request, raw, '', request.envelopeFrom);
  return null;
}

/**
 * A `:mime` reason (RFC 5230 §4.7) is a MIME entity: the reply becomes that entity — its Content-* fields and its
 * body — under the reply's own header (any other field the reason carries is dropped, so a script cannot add a Bcc).
 * A reason that does not start with a header field is sent as text.
 */
function withMimeReason(reply: Buffer, reason: string): Buffer {
  const entity = reason.replace(/\r?\n/g, '\r\n');
  const split = entity.indexOf('\r\n\r\n');
  if (split === -1 || !/^[!-9;-~]+:/.test(entity)) return reply;
  const fields = (head: string) => head.split(/\r\n(?![ \t])/);
  const text = reply.toString('utf8');
  const own = fields(text.slice(0, text.indexOf('\r\n\r\n'))).filter((f) => !/^content-/i.test(f));
  const content = fields(entity.slice(0, split)).filter((f) => /^content-/i.test(f));
  return Buffer.from([...own, ...content].join('\r\n') + '\r\n\r\n' + entity.slice(split + 4), 'utf8');
}

async function vacation(
  deps: SendingDeps,
  request: FilterActionsRequest,
  action: Vacation,
): Promise<string | null> {
  // Not answering automatic or list mail is the rule working, not an error.
  const own = [request.recipient, ...action.addresses];
  if (autoReplyRefusal(headerFieldsOf(request.raw), request.envelopeFrom, own)) return null;
  const sender = request.envelopeFrom.toLowerCase();
  if (!(await claimVacationReply(deps.db, request.accountId, sender, action.handle, action.seconds)))
    return null;
  const original = messageIdOf(request.raw);
  const references = (headerValue(request.raw, 'References') ?? '').match(/<[^<>\s]+>/g) ?? [];
  const reply = await new MailComposer({
    from: await vacationFrom(deps, request, action.from),
    to: request.envelopeFrom,
    subject: action.subject,
    messageId: `<${randomUUID()}@${deps.config.mailDomain}>`,
    date: new Date(),
    ...(original ? { inReplyTo: `<${original}>`, references: [...references, `<${original}>`] } : {}),
    headers: { 'Auto-Submitted': 'auto-replied', Precedence: 'bulk' },
    text: action.reason,
  })
    .compile()
    .build();
  const raw = action.mime ? withMimeReason(reply, action.reason) : reply;
  // The null sender: nothing answers an automatic reply, and a failure does not bounce back here.
  await queue(deps, request, raw, '', request.envelopeFrom);
  return null;
}

/**
 * The From of a vacation reply: `:from` only when it names one of the addresses the account may send as, else the
 * address the message came to when it is one of them, else the primary address — with the display name of that
 * address's profile (else the account's name). A script never signs a reply as someone else.
 */
async function vacationFrom(
  deps: SendingDeps,
  request: FilterActionsRequest,
  wanted: string | null | undefined,
): Promise<{ name: string; address: string }> {
  const own = await senderAddressesOf(deps.db, request.accountId);
  const find = (address: string | null | undefined) => {
    const bare = address ? (/<([^<>]+)>/.exec(address)?.[1] ?? address).trim().toLowerCase() : '';
    return bare ? own.find((a) => a.email.toLowerCase() === bare) : undefined;
  };
  const chosen = find(wanted) ?? find(request.recipient) ?? own[0];
  if (!chosen) return { name: '', address: request.recipient };
  return { name: chosen.name, address: chosen.email };
}

/** The ingest or sending parts with what filters send wired in (sending sits above delivery, so it is injected). */
export function withFilterActions<D extends SendingDeps>(deps: D): D {
  const wired = { ...deps };
  wired.sendFilterActions = filterActionSender(wired);
  return wired;
}
