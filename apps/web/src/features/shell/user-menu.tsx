import { ChevronsUpDown } from 'lucide-react';
import { useTranslation, withFeatureTexts } from '../../i18n';
import { useRid, useUser } from '../account';
import { Avatar } from '../../ui/avatar';
import { Dropdown } from '../../ui/dropdown';
import { lazyChunk } from '../../ui/lazy-route';
import styles from './user-menu.module.css';

// What the open menu shows (member ID, sign-out) loads with the menu, not with the mail shell (DESIGN §5).
const loadItems = withFeatureTexts(() => import('./user-menu-items'));
const UserMenuItems = lazyChunk(loadItems);

export function UserMenu() {
  const { t } = useTranslation();
  const user = useUser();
  const rid = useRid();
  if (!user) return null;
  // Alias-only users do not see the member ID (SPEC §6).
  const memberId = user.info.alias ? null : (user.member_id ?? rid ?? null);
  const displayName = user.name?.trim() || user.email;

  return (
    <Dropdown
      prefetch={loadItems}
      trigger={
        <button type="button" className={styles.trigger} aria-label={t('userMenu.trigger')}>
          <Avatar name={user.name} email={user.email} size={32} />
          <span className={styles.identity}>
            <span className={styles.name}>{displayName}</span>
            <span className={styles.email}>{user.email}</span>
          </span>
          <ChevronsUpDown className={styles.chevron} aria-hidden />
        </button>
      }
      content={(Menu) => (
        <UserMenuItems Menu={Menu} user={user} displayName={displayName} memberId={memberId} />
      )}
    />
  );
}
