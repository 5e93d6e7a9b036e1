import { useQuery } from '@tanstack/react-query';
import { UserCheck } from 'lucide-react';
import { call, routes } from '../../api/client';
import { useTranslation } from '../../i18n';
import { delegatedEmailsKey, openDelegatedAddress } from './impersonation';
import own from './delegated-addresses.module.css';
import styles from './sidebar.module.css';

/**
 * The addresses other members delegated to this one, under the sidebar's address list (SPEC §2 'alias list'): one
 * click opens it (the session then holds the owner's mailbox to that address; the bar on top leads back). A chunk of
 * its own, loaded once the first screen is drawn; nothing is shown while there are none.
 */
export default function DelegatedAddresses() {
  const { t } = useTranslation();
  const delegated = useQuery({
    queryKey: delegatedEmailsKey,
    queryFn: ({ signal }) => call(routes.delegatedEmails, { signal }).then(({ emails }) => emails),
  });
  if (!delegated.data?.length) return null;
  return (
    <ul className={styles.addresses} aria-label={t('sidebar.delegated')}>
      {delegated.data.map((entry) => (
        <li key={entry.email}>
          <button
            type="button"
            className={styles.address}
            title={t('sidebar.delegatedBy', { name: entry.owner.name || entry.owner.member_id })}
            onClick={() => void openDelegatedAddress(entry.email)}
          >
            <UserCheck className={own.icon} aria-hidden />
            {entry.email}
          </button>
        </li>
      ))}
    </ul>
  );
}
