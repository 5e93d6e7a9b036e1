import { useQuery } from '@tanstack/react-query';
import { call, routes } from '../../api/client';
import { useTranslation } from '../../i18n';
import addressList from '../../ui/address-list.module.css';
import styles from './delegated-addresses.module.css';

/**
 * `delegatedEmailsKey` of impersonation.ts, spelled here again on purpose: importing that module statically here puts
 * it into the mail shell's first chunk (DESIGN §5 budget); the domains' live.test.ts holds the two equal.
 */
export const sidebarDelegatedKey = ['user', 'delegated-emails'] as const;

/**
 * The addresses other members delegated to this one, under the sidebar's address list (SPEC §2 'alias list'): one
 * click opens it (the session then holds the owner's mailbox to that address; the bar on top leads back). A chunk of
 * its own, loaded once the first screen is drawn; nothing is shown while there are none.
 */
export default function DelegatedAddresses() {
  const { t } = useTranslation();
  const delegated = useQuery({
    queryKey: sidebarDelegatedKey,
    queryFn: ({ signal }) => call(routes.delegatedEmails, { signal }).then(({ emails }) => emails),
  });
  if (!delegated.data?.length) return null;
  return (
    <ul className={addressList.list} aria-label={t('delegated.sidebar')}>
      <li className={styles.title} aria-hidden>
        {t('delegated.sidebar')}
      </li>
      {delegated.data.map((entry) => (
        <li key={entry.email}>
          <button
            type="button"
            className={addressList.address}
            title={t('delegated.sidebarBy', { name: entry.owner.name || entry.owner.member_id })}
            onClick={() => void import('./mailbox-switch').then((m) => m.openDelegatedAddress(entry.email))}
          >
            {entry.email}
          </button>
        </li>
      ))}
    </ul>
  );
}
