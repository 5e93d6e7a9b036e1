import { useTranslation } from '../../i18n';
import { useUser } from '../account';
import styles from './filters.module.css';

/**
 * For a session that opened someone else's mailbox: saving a new or changed redirect or vacation reply is refused
 * (forwarding_owner_only, issue 28), so the screen says so before anyone tries.
 */
export function ForwardingOwnerNote() {
  const { t } = useTranslation();
  const user = useUser();
  if (!user?.info.impersonator) return null;
  return (
    <p className={styles.ownerNote} role="note">
      {t('filters.ownerOnlyForwarding', { email: user.email })}
    </p>
  );
}
