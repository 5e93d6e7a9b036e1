import type { DnsCheck, Domain, DomainDetailResponse, DomainDkimKey } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { invoiceView, type InvoiceRow } from '../wallet/index.js';
import {
  DMARC_VALUE,
  dkimPublicKeyIn,
  dkimRecordName,
  dkimTxtValue,
  dnsAnswers,
  findAccountDomain,
  listAccountDomains,
  listDomainKeys,
  spfIncludes,
  spfValue,
  spfWithInclude,
  splitTxt,
  verificationOf,
  verificationTokensIn,
  zoneSnippet,
  type DomainDeps,
  type DomainKeyRow,
  type DomainRow,
} from '../addresses/index.js';
import { invoiceOfRow } from './address-invoices.js';

/** An own domain as settings/domains shows it: the row, its invoice, its DNS health asked now, its keys, its zone. */

export const DOMAIN_INVOICE_PURPOSE = 'domain';

/** A paid domain's invoice (a free domain has none). */
export async function invoiceOf(db: Db, row: DomainRow): Promise<InvoiceRow | undefined> {
  if (!row.paid) return undefined;
  return invoiceOfRow(db, DOMAIN_INVOICE_PURPOSE, row);
}

export async function toDomain(deps: DomainDeps, row: DomainRow, emailsCount: number): Promise<Domain> {
  const invoice = await invoiceOf(deps.db, row);
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    status: row.status,
    method: row.method,
    verification: verificationOf(row.name, row.token, deps.domains.siteUrl),
    failure:
      row.status === 'failed' && row.failure_reason
        ? { reason: row.failure_reason, found: row.failure_found }
        : null,
    verified_at: row.verified_at?.toISOString() ?? null,
    checked_at: row.checked_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    paid: row.paid,
    invoice: invoice ? invoiceView(invoice) : null,
    catch_all_email_id: row.catch_all_alias_id,
    emails_count: emailsCount,
  };
}

export async function requireDomain(db: Db, accountId: number, domainId: number): Promise<DomainRow> {
  const row = await findAccountDomain(db, accountId, domainId);
  if (!row) throw new DomainError('entity_not_found');
  return row;
}

function keyView(row: DomainRow, key: DomainKeyRow): DomainDkimKey {
  return {
    selector: key.selector,
    algorithm: key.algorithm,
    state: key.state,
    dns_name: dkimRecordName(key.selector, row.name),
    dns_value: splitTxt(dkimTxtValue(key.algorithm, key.public_key)),
    created_at: key.created_at.toISOString(),
    retire_at: key.retire_at?.toISOString() ?? null,
  };
}

/** The DNS health of a domain, record by record, asked of the resolver now. */
async function dnsHealth(deps: DomainDeps, row: DomainRow, keys: DomainKeyRow[]): Promise<DnsCheck[]> {
  const { name } = row;
  const verification = verificationOf(name, row.token, deps.domains.siteUrl);
  const [txt, mx, dmarc, ...dkim] = await Promise.all([
    dnsAnswers(() => deps.resolver.txt(name)),
    dnsAnswers(() => deps.resolver.mx(name)),
    dnsAnswers(() => deps.resolver.txt(`_dmarc.${name}`)),
    ...keys.map((k) => dnsAnswers(() => deps.resolver.txt(dkimRecordName(k.selector, name)))),
  ]);
  const proven = row.status === 'succeed' && row.unverified_since === null;
  const spf = txt.filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));
  const spfOk = spf.length === 1 && spfIncludes(spf[0]!, deps.domains.spfInclude);
  const checks: DnsCheck[] = [
    row.method === 'meta'
      ? {
          kind: 'verification',
          type: 'TXT',
          name: verification.url,
          expected: verification.meta_tag,
          found: [],
          ok: proven,
        }
      : {
          kind: 'verification',
          type: 'TXT',
          name,
          expected: verification.txt_value,
          found: txt.filter((r) => verificationTokensIn([r]).length > 0),
          ok: verificationTokensIn(txt).includes(row.token),
        },
    { kind: 'mx', type: 'MX', name, expected: deps.mxHost, found: mx, ok: mx.includes(deps.mxHost) },
    {
      kind: 'spf',
      type: 'TXT',
      name,
      expected: spfValue(deps.domains.spfInclude),
      found: spf,
      ok: spfOk,
      ...(!spfOk && spf.length > 0 ? { suggested: spfWithInclude(spf, deps.domains.spfInclude) } : {}),
    },
    ...keys.map((key, i): DnsCheck => ({
      kind: 'dkim',
      type: 'TXT',
      name: dkimRecordName(key.selector, name),
      expected: dkimTxtValue(key.algorithm, key.public_key),
      found: dkim[i]!,
      ok: dkim[i]!.some((r) => dkimPublicKeyIn(r) === key.public_key),
    })),
    {
      kind: 'dmarc',
      type: 'TXT',
      name: `_dmarc.${name}`,
      expected: DMARC_VALUE,
      found: dmarc,
      ok: dmarc.some((r) => /^v=DMARC1\s*(;|$)/i.test(r.trim())),
    },
  ];
  return checks;
}

/** GET user/domains/{id}: the domain, its DNS health, its DKIM keys and the zone snippet. */
export async function domainDetailOf(
  deps: DomainDeps,
  accountId: number,
  domainId: number,
): Promise<DomainDetailResponse> {
  const row = await requireDomain(deps.db, accountId, domainId);
  const count =
    (await listAccountDomains(deps.db, accountId)).find((d) => d.id === row.id)?.emails_count ?? 0;
  const keys = await listDomainKeys(deps.db, row.id);
  const dkim = keys.map((k) => keyView(row, k));
  return {
    domain: await toDomain(deps, row, count),
    dns: await dnsHealth(deps, row, keys),
    dkim,
    zone: zoneSnippet({
      name: row.name,
      verification:
        row.method === 'meta' ? undefined : verificationOf(row.name, row.token, deps.domains.siteUrl),
      mxHost: deps.mxHost,
      spfInclude: deps.domains.spfInclude,
      dkim: dkim.map((k) => ({ name: k.dns_name, value: k.dns_value })),
    }),
  };
}
