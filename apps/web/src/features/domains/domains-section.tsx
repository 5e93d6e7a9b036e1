import { useTranslation } from '../../i18n';
import { DomainPage, idOf, notFoundQuery } from './domain-page';
import { DomainConfirmPage } from './domain-confirm';
import { DomainCreatePage } from './domain-create';
import { DomainDkimPage } from './domain-dkim';
import { DomainEmailsPage } from './domain-emails';
import { DomainListPage } from './domain-list';
import { DomainRemovePage } from './domain-remove';

// settings/d_emails and the access page's addresses travel in this chunk too (index.ts).
export { default as DelegatedSection } from './delegated-section';
export { default as AccessAddresses } from './access-addresses';

export type DomainsAction = 'create' | 'confirm' | 'dkim' | 'remove' | 'emails';

/**
 * The domains section of settings (SPEC §2: domains — list with create; confirm/{id}; dkim/{id}; remove/{id};
 * emails/{id}): the list, or one of its children.
 */
export default function DomainsSection({ action, id }: { action?: DomainsAction; id?: string }) {
  const { t } = useTranslation();
  if (action === undefined) return <DomainListPage />;
  if (action === 'create') return <DomainCreatePage />;
  const domainId = idOf(id);
  if (domainId < 0) return <DomainPage title={t('domains.title')} query={notFoundQuery} />;
  if (action === 'confirm') return <DomainConfirmPage key={domainId} id={domainId} />;
  if (action === 'dkim') return <DomainDkimPage key={domainId} id={domainId} />;
  if (action === 'remove') return <DomainRemovePage key={domainId} id={domainId} />;
  return <DomainEmailsPage key={domainId} id={domainId} />;
}
