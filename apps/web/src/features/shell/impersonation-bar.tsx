import { useState } from 'react';
import { ArrowLeftRight } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { useUser } from '../account';
import { backToOwnMailbox } from './mailbox-switch';
import styles from './impersonation-bar.module.css';

/**
 * While this session has opened another member's mailbox (info.impersonator), a bar over every screen says whose
 * mailbox it is — or, for an address delegated to this member (info.alias as well), which address — and leads back
 * to one's own. A chunk of its own (impersonation-slot.tsx): few sessions ever show it.
 */
export default function ImpersonationBar() {
  const { t } = useTranslation();
  const user = useUser();
  const [leaving, setLeaving] = useState(false);
  const impersonator = user?.info.impersonator;
  if (!user || !impersonator) return null;
  const owner = user.name?.trim() ? `${user.name.trim()} <${user.email}>` : user.email;
  return (
    <div className={styles.bar} role="status" data-testid="impersonation-bar">
      <ArrowLeftRight aria-hidden />
      <span className={styles.text}>
        {user.info.alias
          ? t('impersonation.barDelegated', { address: user.info.alias, you: impersonator.email })
          : t('impersonation.bar', { owner, you: impersonator.email })}
      </span>
      <Button
        variant="secondary"
        disabled={leaving}
        onClick={() => {
          setLeaving(true);
          void backToOwnMailbox().finally(() => setLeaving(false));
        }}
      >
        {t('impersonation.back')}
      </Button>
    </div>
  );
}
