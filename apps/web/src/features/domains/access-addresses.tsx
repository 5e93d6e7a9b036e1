import { Link as LinkIcon } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import page from '../../ui/settings-page.module.css';
import { call, routes } from '../../api/client';
import { domainEmailsPath, domainsPath } from './paths';
import { domainQueries } from './queries';
import { SettingsList } from '../../ui/settings-list';

/**
 * `aliasKeys.list` of aliases/queries.ts and its path, spelled here again on purpose: importing the aliases feature
 * would make a chunk shared with the aliases screen, which the shell's first chunk has to name (DESIGN §5 budget);
 * domains-screens.test.tsx holds the key equal.
 */
export const aliasListKey = ['aliases', 'list'] as const;
const aliasesPath = '/settings/aliases';

/**
 * settings/access: the addresses with password access — the aliases' (set on the aliases screen), those on own
 * domains (set on each domain's addresses screen) and on public ones (the domains list) — each linked to the one place
 * where it is set or removed.
 */
export default function AccessAddresses() {
  const { t } = useTranslation();
  // A part of the security page: a failure here shows as an empty list, not as the error dialog over the page.
  const aliasList = useQuery({
    queryKey: aliasListKey,
    queryFn: ({ signal }) => call(routes.aliases, { signal }),
    meta: { showError: false },
  });
  // Every address on a domain in one read; an own domain's is set on its addresses screen, a public one's on the list.
  const domains = useQuery({ ...domainQueries.list(), meta: { showError: false } });
  const emails = useQuery({ ...domainQueries.allEmails(), meta: { showError: false } });
  const own = new Set((domains.data ?? []).map((domain) => domain.id));
  const onDomains = (emails.data ?? [])
    .filter((email) => email.password_access)
    .map((email) => ({
      email: email.email,
      to: own.has(email.domain_id) ? domainEmailsPath(email.domain_id) : domainsPath,
    }));
  const aliases = (aliasList.data?.aliases ?? [])
    .filter((alias) => alias.password_access)
    .map((alias) => ({ email: alias.email, to: aliasesPath }));
  const all = [...aliases, ...onDomains];
  return (
    <>
      <p className={page.hint}>{t('domains.access.intro')}</p>
      {all.length > 0 ? (
        <SettingsList aria-label={t('domains.access.listLabel')}>
          {all.map((entry) => (
            <li key={entry.email} className={page.item}>
              <span className={page.itemMain}>
                <span className={page.itemName}>{entry.email}</span>
              </span>
              <Link to={entry.to} aria-label={t('domains.access.manageFor', { email: entry.email })}>
                <LinkIcon aria-hidden /> {t('domains.access.manage')}
              </Link>
            </li>
          ))}
        </SettingsList>
      ) : (
        <p className={page.muted}>{t('domains.access.none')}</p>
      )}
      <p className={page.hint}>
        <Link to={aliasesPath}>{t('domains.access.toAliases')}</Link> ·{' '}
        <Link to={domainsPath}>{t('domains.access.toDomains')}</Link>
      </p>
    </>
  );
}
