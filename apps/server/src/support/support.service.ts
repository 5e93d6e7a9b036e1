import {
  composeRequestSchema,
  type SupportDelivery,
  type SupportRequest,
  type SupportResponse,
} from '@mailroom/protocol';
import type { Config } from '../config.js';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { serverPackage } from '../core/install.js';
import { emit } from '../core/events/index.js';
import { lockAccount, scopedFolderCounts, wholeMailbox } from '../mailbox/index.js';
import { findAccountById, requireAccount, type Principal } from '../accounts/index.js';
import { resolveRecipient } from '../addresses/index.js';
import { prepareMessage, sendMessage, type SendingDeps } from '../sending/index.js';
import {
  countSupportRequestsSince,
  deleteSupportRequest,
  insertSupportRequest,
  latestSupportRequests,
  supportRequestsOf,
  type SupportRequestRow,
} from './support.repository.js';

/** Requests an account may send in an hour. */
export const SUPPORT_REQUESTS_PER_HOUR = 10;
/** How many past requests the history shows. */
const HISTORY_LIMIT = 100;

/** This server's version, from its package.json. */
const version = (): string => serverPackage().version;

const view = (row: SupportRequestRow): SupportRequest => ({
  id: row.id,
  subject: row.subject,
  text: row.text,
  created_at: new Date(row.created_at).toISOString(),
  diagnostics: row.diagnostics,
});

/** GET user/support/diagnostics: what a request with include_diagnostics adds, exactly as it is sent. */
export async function supportDiagnostics(db: Db, accountId: number): Promise<Record<string, string>> {
  const account = await requireAccount(db, accountId);
  const counts = [...(await scopedFolderCounts(db, accountId, wholeMailbox)).values()];
  return {
    account_id: String(account.id),
    member_id: account.member_id,
    quota_used_bytes: String(account.quota_used_bytes),
    quota_limit_bytes: String(account.quota_limit_bytes),
    messages: String(counts.reduce((sum, c) => sum + c.total, 0)),
    folders: String(counts.length),
    server_version: version(),
    server_time: new Date().toISOString(),
  };
}

/**
 * Whether requests go as mail: not when SUPPORT_EMAIL is an address of ours that no mailbox holds (the default
 * support@MAIL_DOMAIN: `support` is on the alias stop list, so no account can ever hold it). Such mail would only
 * come back as a bounce; the requests are kept for the operator instead (`mailroom support list`). An address
 * elsewhere is the operator's to vouch for, and goes as mail.
 */
export async function supportDelivery(db: Db, config: Config): Promise<SupportDelivery> {
  const resolved = await resolveRecipient(db, config, config.supportEmail);
  return resolved.kind === 'local' || resolved.kind === 'foreign' ? 'mail' : 'kept';
}

export async function listSupportRequests(
  db: Db,
  config: Config,
  accountId: number,
): Promise<{ requests: SupportRequest[]; delivery: SupportDelivery }> {
  return {
    requests: (await supportRequestsOf(db, accountId, HISTORY_LIMIT)).map(view),
    delivery: await supportDelivery(db, config),
  };
}

export interface OperatorSupportRequest extends SupportRequest {
  member_id: string;
  email: string;
  name: string;
}

/** The operator's view (`mailroom support list`): the latest requests of every member, with who sent them. */
export async function operatorSupportRequests(db: Db, limit: number): Promise<OperatorSupportRequest[]> {
  const rows = await latestSupportRequests(db, limit);
  const accounts = new Map<number, Awaited<ReturnType<typeof findAccountById>>>();
  for (const id of new Set(rows.map((r) => r.account_id))) accounts.set(id, await findAccountById(db, id));
  return rows.map((row) => {
    const account = accounts.get(row.account_id);
    return {
      ...view(row),
      member_id: account?.member_id ?? '',
      email: account?.email ?? '',
      name: account?.name ?? '',
    };
  });
}

function lines(title: string, values: Record<string, string>): string {
  const entries = Object.entries(values);
  if (!entries.length) return '';
  return `\n\n-- ${title} --\n${entries.map(([k, v]) => `${k}: ${v.replace(/[\r\n]+/g, ' ')}`).join('\n')}`;
}

/**
 * POST user/support: the request is kept, and goes as mail From the primary address to SUPPORT_EMAIL through the
 * normal sending path (a copy in Sent, local delivery or the outbox), with the diagnostics appended only when the user
 * agreed — unless no mailbox can receive SUPPORT_EMAIL (supportDelivery 'kept'): then it is only kept, for the
 * operator. At most SUPPORT_REQUESTS_PER_HOUR an hour, counted under the account row's lock so requests at once
 * cannot overrun it; a request whose mail could not be sent is not kept.
 */
export async function createSupportRequest(
  deps: SendingDeps,
  principal: Principal,
  body: { subject: string; text: string; include_diagnostics: boolean; client: Record<string, string> },
): Promise<SupportResponse> {
  const accountId = principal.accountId;
  if (!body.subject || !body.text) throw new DomainError('support_message_empty');
  const account = await requireAccount(deps.db, accountId);
  const now = new Date();
  const row = await transact(deps.db, async (trx) => {
    await lockAccount(trx, accountId);
    const recent = await countSupportRequestsSince(trx, accountId, new Date(now.getTime() - 3600_000));
    if (recent >= SUPPORT_REQUESTS_PER_HOUR)
      throw new DomainError('too_many_requests', 'Too many support requests this hour, try again later');
    return insertSupportRequest(trx, {
      account_id: accountId,
      subject: body.subject,
      text: body.text,
      diagnostics: body.include_diagnostics,
      created_at: now,
    });
  });
  const delivery = await supportDelivery(deps.db, deps.config);
  if (delivery === 'kept') {
    await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'support' }]);
    return { request: view(row), delivery };
  }
  try {
    const diagnostics = body.include_diagnostics
      ? lines('Diagnostics', await supportDiagnostics(deps.db, accountId)) + lines('Browser', body.client)
      : '';
    const request = composeRequestSchema.parse({
      subject: body.subject,
      fields: {
        from: { email: account.email, name: account.name },
        to: [{ email: deps.config.supportEmail, name: '' }],
      },
      content: `${body.text}${diagnostics}`,
      content_type: 'text/plain',
    });
    await sendMessage(deps, principal, await prepareMessage(deps.db, principal, request, 'send'));
  } catch (err) {
    await deleteSupportRequest(deps.db, row.id);
    throw err;
  }
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'support' }]);
  return { request: view(row), delivery };
}
