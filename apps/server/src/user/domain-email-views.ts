import type { DomainEmail } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { invoicesForSubjects, invoiceView } from '../wallet/index.js';
import {
  findUsableDomain,
  listDomainEmails as domainEmailRowsOf,
  type DomainRef,
} from '../addresses/index.js';

/** Addresses on domains as the screens show them, each with its invoice. */

export const DOMAIN_EMAIL_INVOICE_PURPOSE = 'domain_email';

type ListedRow = Awaited<ReturnType<typeof domainEmailRowsOf>>[number];

/** The rows as the screens show them, their invoices read in one query (the one set on the row, else the newest). */
async function toDomainEmails(db: Db, rows: ListedRow[]): Promise<DomainEmail[]> {
  const invoices = await invoicesForSubjects(
    db,
    DOMAIN_EMAIL_INVOICE_PURPOSE,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const issued = invoices.filter((invoice) => invoice.subject_id === row.id);
    const invoice = row.invoice_id !== null ? issued.find((i) => i.id === row.invoice_id) : issued.at(-1);
    return {
      id: row.id,
      domain_id: row.domain_id,
      email: row.email,
      status: row.status,
      catch_all: row.catch_all,
      password_access: row.password_access,
      delegate:
        row.delegate_member_id !== null
          ? { member_id: row.delegate_member_id, name: row.delegate_name ?? '' }
          : null,
      paid: invoice !== undefined || row.status === 'unpaid',
      invoice: invoice ? invoiceView(invoice) : null,
      created_at: row.created_at.toISOString(),
    };
  });
}

export async function requireDomain(db: Db, accountId: number, domainId: number): Promise<DomainRef> {
  const domain = await findUsableDomain(db, accountId, domainId);
  if (!domain) throw new DomainError('entity_not_found');
  return domain;
}

/** GET user/domains/{id}/emails: the account's addresses on its domain (or on a public domain), oldest first. */
export async function listDomainEmails(
  deps: { db: Db },
  accountId: number,
  domainId: number,
): Promise<DomainEmail[]> {
  await requireDomain(deps.db, accountId, domainId);
  return toDomainEmails(deps.db, await domainEmailRowsOf(deps.db, accountId, domainId));
}

/**
 * GET user/domains/emails: every address of the account on a domain, own or public, oldest first (settings/access
 * and the addresses on public domains read them all at once instead of domain by domain).
 */
export async function listAllDomainEmails(deps: { db: Db }, accountId: number): Promise<DomainEmail[]> {
  return toDomainEmails(deps.db, await domainEmailRowsOf(deps.db, accountId));
}

/** One address as the screen shows it; entity_not_found when it is not the account's (or is deleted). */
export async function domainEmailOf(
  db: Db,
  accountId: number,
  domainId: number,
  emailId: number,
): Promise<DomainEmail> {
  await requireDomain(db, accountId, domainId);
  const row = (await domainEmailRowsOf(db, accountId, domainId)).find((r) => r.id === emailId);
  if (!row) throw new DomainError('entity_not_found');
  const [email] = await toDomainEmails(db, [row]);
  return email!;
}
