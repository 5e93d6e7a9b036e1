import { LogIn, LogOut } from 'lucide-react';
import type { AccessResponse } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { isUnauthorized } from '../../api/client';
import { logOut, logOutUrl, signInUrl } from '../account';
import { Avatar } from '../../ui/avatar';
import type { MenuKit } from '../../ui/dropdown';
import { raiseError } from '../../api/error-message';
import { MemberIdButton } from './member-id-button';
import menu from '../../ui/menu.module.css';
import styles from './user-menu.module.css';

/** Ends this session only, then signs in afresh: the provider asks who it is (prompt=login) and switches accounts. */
async function endSession(then: string) {
  try {
    await logOut();
  } catch (error) {
    // Already signed out elsewhere: carry on to the destination anyway.
    if (!isUnauthorized(error)) {
      raiseError(error);
      return;
    }
  }
  window.location.assign(then);
}

export interface UserMenuItemsProps {
  Menu: MenuKit;
  user: AccessResponse;
  displayName: string;
  /** Null for alias-only users, who do not see it (SPEC §6). */
  memberId: string | null;
}

/** The open user menu: who is signed in, the member ID to copy, log out and sign in as another user. */
export default function UserMenuItems({ Menu, user, displayName, memberId }: UserMenuItemsProps) {
  const { t } = useTranslation();
  return (
    <>
      <div className={styles.header}>
        <Avatar name={user.name} email={user.email} size={40} />
        <span className={styles.identity}>
          <span className={styles.name}>{displayName}</span>
          <span className={styles.email}>{user.email}</span>
        </span>
      </div>
      {memberId ? (
        // Kept open on select so the 'Copied' confirmation stays visible.
        <Menu.Item asChild onSelect={(event) => event.preventDefault()}>
          <MemberIdButton memberId={memberId} />
        </Menu.Item>
      ) : null}
      <Menu.Separator className={menu.separator} />
      {/* A navigation: it ends the provider's session too, so the next sign-in asks for the password. */}
      <Menu.Item className={menu.item} onSelect={() => window.location.assign(logOutUrl())}>
        <LogOut aria-hidden />
        {t('userMenu.logout')}
      </Menu.Item>
      <Menu.Item
        className={menu.item}
        onSelect={() => void endSession(signInUrl('/mail', { prompt: 'login' }))}
      >
        <LogIn aria-hidden />
        {t('userMenu.loginAnother')}
      </Menu.Item>
    </>
  );
}
