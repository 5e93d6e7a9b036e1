import net from 'node:net';
import { domainToASCII } from 'node:url';
import {
  collectorFolderName,
  type Collector,
  type CollectorCreate,
  type CollectorUpdate,
  type FindImapResponse,
  type ImapSecurity,
} from '@mailroom/protocol';
import { isUniqueViolation, transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { deleteJob, enqueueJob, wakeJobs } from '../core/jobs/index.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { deleteFolderTree, ensureCollectorFolderPath, lockAccount } from '../mailbox/index.js';
import { sealCollectorPassword } from './collector-password.js';
import { adoptKeptRecords, keepCollectorRecords } from './collector-records.repository.js';
import { COLLECTOR_JOB } from './collector-sync.js';
import { collectorView } from './collector-view.js';
import {
  collectsAddress,
  countCollectorRows,
  deleteCollectorRow,
  findCollectorRow,
  insertCollectorRow,
  listCollectorRows,
  lockCollectorRow,
  updateCollectorRow,
  type CollectorPatch,
  type CollectorRow,
} from './collectors.repository.js';
import { collectorDomainOf, findImap, type DiscoveryDeps } from './discovery.js';
import { connectImap, imapErrorCode, type ImapEndpoint } from './imap-connect.js';
import { providerForDomain, providerForImapHost, type KnownProvider } from './providers.js';

/**
 * Collectors (issue 18; SPEC §2 settings/collectors, §7 user/collectors): their creation after a real sign-in to the
 * remote server, the list, enabling and disabling, a new password, deletion with or without the imported mail. The
 * import itself (the durable job, the folders' and messages' records, polling) is the import engine's; this area's
 * rows are what it reads. Every change tells the owner's tabs (updateAccount 'collectors') once it has committed.
 */
export interface CollectorsDeps extends DiscoveryDeps {
  db: Db;
  events: EventBus;
  log: PublishLog;
  /** Secrets.collectorPasswordSecret. */
  passwordSecret: string;
  /** MAX_COLLECTORS. */
  maxCollectors: number;
}

export async function listCollectors(
  deps: Pick<CollectorsDeps, 'db'>,
  accountId: number,
): Promise<Collector[]> {
  return (await listCollectorRows(deps.db, accountId)).map(collectorView);
}

export function discoverImap(deps: CollectorsDeps, email: string): Promise<FindImapResponse> {
  return findImap(email, deps);
}

const announce = (deps: CollectorsDeps, accountId: number, folders: boolean) =>
  emit(deps.db, deps, accountId, [
    { event: 'updateAccount', part: 'collectors' },
    ...(folders ? [{ event: 'updateMailboxList' as const }] : []),
  ]);

const hostLabel = /^[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?$/;

/** A host given by hand: a DNS name (IDN as punycode) or an IP literal; invalid_domain_for_mail_server otherwise. */
function validHost(input: string): string {
  const bare = input
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (net.isIP(bare)) return bare;
  const ascii = domainToASCII(bare.toLowerCase());
  if (!ascii || ascii.length > 253 || !ascii.split('.').every((l) => hostLabel.test(l)))
    throw new DomainError('invalid_domain_for_mail_server');
  return ascii;
}

function validPort(port: number | undefined): number | undefined {
  if (port === undefined) return undefined;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new DomainError('invalid_port');
  return port;
}

/** Where a new collector signs in: what the user gave, or what discovery finds; and whose server it is. */
async function endpointFor(
  deps: CollectorsDeps,
  input: CollectorCreate,
  domain: string,
): Promise<{ endpoint: ImapEndpoint; provider: KnownProvider | null }> {
  const port = validPort(input.port);
  if (input.host === undefined) {
    const found = await findImap(input.email, deps);
    const provider = providerForImapHost(found.server.host) ?? providerForDomain(domain);
    return { endpoint: found.server, provider };
  }
  const host = validHost(input.host);
  const security: ImapSecurity = input.security ?? (port === 143 ? 'starttls' : 'tls');
  const endpoint = { host, port: port ?? (security === 'tls' ? 993 : 143), security };
  return { endpoint, provider: providerForImapHost(host) ?? providerForDomain(domain) };
}

/**
 * A refused password at a provider that lets mail programs in only with an app password, or only through OAuth, says
 * so, naming the provider (the web shows its help page from find_imap).
 */
function signInFailure(err: unknown, provider: KnownProvider | null): unknown {
  if (!(err instanceof DomainError) || err.code !== 'collector_invalid_password' || !provider?.requires)
    return err;
  if (provider.requires === 'oauth')
    return new DomainError(
      'collector_oauth_required',
      `${provider.name} lets mail programs in only through its own sign-in (OAuth)`,
    );
  return new DomainError(
    'collector_app_password_required',
    `${provider.name} needs an app password: create one in its account settings and enter it here`,
  );
}

/** Signs in, and with `inbox` also opens INBOX read-only (cant_fetch_inbox when the mailbox has none). */
async function checkSignIn(
  deps: CollectorsDeps,
  endpoint: ImapEndpoint,
  auth: { user: string; pass: string },
  provider: KnownProvider | null,
  inbox: boolean,
): Promise<void> {
  const client = await connectImap(endpoint, auth, deps).catch((err: unknown) => {
    throw signInFailure(err, provider);
  });
  try {
    if (inbox) {
      try {
        await client.mailboxOpen('INBOX', { readOnly: true });
      } catch (err) {
        const status = (err as { responseStatus?: unknown }).responseStatus;
        if (status === 'NO' || status === 'BAD') throw new DomainError('cant_fetch_inbox');
        throw new DomainError(imapErrorCode(err));
      }
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
}

async function checkRoom(deps: CollectorsDeps, db: Db, accountId: number, email: string): Promise<void> {
  if (await collectsAddress(db, accountId, email)) throw new DomainError('err_provider_already_exists');
  if ((await countCollectorRows(db, accountId)) >= deps.maxCollectors)
    throw new DomainError('max_count_collectors');
}

export async function createCollector(
  deps: CollectorsDeps,
  accountId: number,
  input: CollectorCreate,
): Promise<Collector> {
  const domain = collectorDomainOf(input.email);
  const email = input.email.trim().toLowerCase();
  validPort(input.port);
  // Cheap refusals before any network: the same checks run again under the account's lock below.
  await checkRoom(deps, deps.db, accountId, email);
  const { endpoint, provider } = await endpointFor(deps, { ...input, email }, domain);
  const login = input.login?.trim() || email;
  await checkSignIn(deps, endpoint, { user: login, pass: input.password }, provider, true);

  const folderName = collectorFolderName(email);
  let row: CollectorRow;
  try {
    row = await transact(deps.db, async (trx) => {
      await lockAccount(trx, accountId);
      await checkRoom(deps, trx, accountId, email);
      const inserted = await insertCollectorRow(trx, {
        account_id: accountId,
        email,
        login,
        host: endpoint.host,
        port: endpoint.port,
        security: endpoint.security,
        password_sealed: sealCollectorPassword(deps.passwordSecret, input.password),
        folder_name: folderName,
        apply_filters: input.apply_filters ?? false,
      });
      await ensureCollectorFolderPath(trx, accountId, folderName);
      // The same mailbox collected before and deleted with its mail kept: what was copied then is not copied again.
      await adoptKeptRecords(trx, inserted.id, { accountId, host: endpoint.host, login });
      await enqueueJob(trx, { kind: COLLECTOR_JOB, key: String(inserted.id) });
      return inserted;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('err_provider_already_exists');
    throw err;
  }
  wakeJobs(COLLECTOR_JOB);
  await announce(deps, accountId, true);
  return collectorView(row);
}

export async function updateCollector(
  deps: CollectorsDeps,
  accountId: number,
  id: number,
  input: CollectorUpdate,
): Promise<Collector> {
  const current = await findCollectorRow(deps.db, accountId, id);
  if (!current) throw new DomainError('collector_not_found');
  if (input.password !== undefined) {
    const endpoint = { host: current.host, port: current.port, security: current.security };
    const provider = providerForImapHost(current.host) ?? providerForDomain(collectorDomainOf(current.email));
    await checkSignIn(deps, endpoint, { user: current.login, pass: input.password }, provider, false);
  }
  const row = await transact(deps.db, async (trx) => {
    const locked = await lockCollectorRow(trx, accountId, id);
    if (!locked) throw new DomainError('collector_not_found');
    const patch: CollectorPatch = {};
    if (input.apply_filters !== undefined) patch.apply_filters = input.apply_filters;
    // A new password that signs in, or enabling: the stop after refusals is lifted and a pass is due now.
    const restart =
      input.enabled === true || (input.password !== undefined && (input.enabled ?? locked.enabled));
    if (input.password !== undefined)
      patch.password_sealed = sealCollectorPassword(deps.passwordSecret, input.password);
    if (input.enabled === false) {
      Object.assign(patch, { enabled: false, state: 'disabled', next_sync_at: null });
    } else if (restart) {
      Object.assign(patch, {
        enabled: true,
        auth_failures: 0,
        failures: 0,
        next_sync_at: new Date(),
        ...(locked.state === 'stopped' || locked.state === 'disabled' || locked.state === 'retrying'
          ? { state: 'idle' }
          : {}),
        ...(locked.state === 'stopped' ? { last_error: null, last_error_at: null } : {}),
      } satisfies CollectorPatch);
    }
    if (Object.keys(patch).length === 0) return locked;
    if (restart && input.enabled !== false) await enqueueJob(trx, { kind: COLLECTOR_JOB, key: String(id) });
    return updateCollectorRow(trx, accountId, id, patch);
  });
  wakeJobs(COLLECTOR_JOB);
  await announce(deps, accountId, false);
  return collectorView(row);
}

/**
 * keep_mail: the imported folders and mail stay as ordinary mail, and so does the record of what was copied, so the
 * same mailbox added again copies only what is new (issue 28 item 19); otherwise they go, and their size with them.
 */
export async function deleteCollector(
  deps: CollectorsDeps,
  accountId: number,
  id: number,
  keepMail: boolean,
): Promise<void> {
  let removedFolders = 0;
  await transact(deps.db, async (trx) => {
    await lockAccount(trx, accountId);
    const row = await lockCollectorRow(trx, accountId, id);
    if (!row) throw new DomainError('collector_not_found');
    if (!keepMail) removedFolders = await deleteFolderTree(trx, accountId, row.folder_name);
    else await keepCollectorRecords(trx, row.id, { accountId, host: row.host, login: row.login });
    await deleteCollectorRow(trx, accountId, id);
    await deleteJob(trx, COLLECTOR_JOB, String(id));
  });
  await announce(deps, accountId, removedFolders > 0);
}
