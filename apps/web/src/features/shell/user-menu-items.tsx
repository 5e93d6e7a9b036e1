import { ArrowLeftRight, Inbox, LogIn, LogOut } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import type { AccessResponse } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { call, isUnauthorized, routes } from '../../api/client';
import { logOut, logOutUrl, signInUrl } from '../account';
import { Avatar } from '../../ui/avatar';
import type { MenuKit } from '../../ui/dropdown';
import { raiseError } from '../../api/error-message';
import { sharedMailboxesKey } from './impersonation';
import { backToOwnMailbox, openSharedMailbox } from './mailbox-switch';
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
      {user.info.impersonator ? (
        <>
          <Menu.Separator className={menu.separator} />
          <Menu.Item className={menu.item} onSelect={() => void backToOwnMailbox()}>
            <ArrowLeftRight aria-hidden />
            {t('userMenu.backToMine')}
          </Menu.Item>
        </>
      ) : user.info.alias ? null : (
        <SharedMailboxes Menu={Menu} />
      )}
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

/** The mailboxes whose owners let this member open them (SPEC §6), read when the menu opens; one opens on choice. */
function SharedMailboxes({ Menu }: { Menu: MenuKit }) {
  const { t } = useTranslation();
  const shared = useQuery({
    queryKey: sharedMailboxesKey,
    queryFn: ({ signal }) => call(routes.sharedMailboxes, { signal }).then((r) => r.mailboxes),
  });
  return (
    <>
      <Menu.Separator className={menu.separator} />
      <Menu.Label className={menu.label}>{t('userMenu.sharedWithMe')}</Menu.Label>
      {shared.data ? (
        shared.data.length === 0 ? (
          <Menu.Item className={menu.item} disabled>
            {t('userMenu.sharedNone')}
          </Menu.Item>
        ) : (
          shared.data.map((mailbox) => (
            <Menu.Item
              key={mailbox.member_id}
              className={menu.item}
              aria-label={t('userMenu.openShared', { name: mailbox.name || mailbox.email })}
              onSelect={() => void openSharedMailbox(mailbox.member_id)}
            >
              <Inbox aria-hidden />
              <span className={styles.identity}>
                <span className={styles.name}>{mailbox.name || mailbox.email}</span>
                {mailbox.name ? <span className={styles.email}>{mailbox.email}</span> : null}
              </span>
            </Menu.Item>
          ))
        )
      ) : (
        <Menu.Item className={menu.item} disabled>
          {shared.isError ? t('userMenu.sharedFailed') : t('userMenu.sharedLoading')}
        </Menu.Item>
      )}
    </>
  );
}
