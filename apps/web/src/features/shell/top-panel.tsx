import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { useQueryClient } from '@tanstack/react-query';
import { Contact, EllipsisVertical, Info, RotateCw, Settings } from 'lucide-react';
import { SearchLine } from '../search';
import { MainHeader } from './main-header';
import { Link } from '../../lib/router';
import { IconButton } from '../../ui/icon-button';
import { Dropdown } from '../../ui/dropdown';
import { useUser } from '../account';
import menu from '../../ui/menu.module.css';
import styles from './top-panel.module.css';

export interface TopPanelProps {
  title: string;
  /** The page range and paging buttons. */
  range?: ReactNode;
  /** Before the title: the select menu. */
  leading?: ReactNode;
  /** After the title: the actions on the selected or open messages. */
  actions?: ReactNode;
  /**
   * A phone's bar full of selection actions: the title stays for screen readers only, and search and refresh make
   * room until the selection is cleared (at 360 px the actions would push the dots menu off the screen).
   */
  crowded?: boolean;
}

/** SPEC §2 top panel: select menu, title, actions, search, refresh, paging and the dots menu. */
export function TopPanel({ title, range, leading, actions, crowded = false }: TopPanelProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useUser();
  const isAliasUser = Boolean(user?.info.alias);
  return (
    <MainHeader label={t('mail.toolbar')}>
      {leading}
      <h1 className={crowded ? 'visually-hidden' : styles.title}>{title}</h1>
      {actions}
      {crowded ? null : (
        <>
          <SearchLine />
          <IconButton label={t('common.refresh')} onClick={() => void queryClient.invalidateQueries()}>
            <RotateCw aria-hidden />
          </IconButton>
        </>
      )}
      {range}
      <Dropdown
        align="end"
        trigger={
          <IconButton label={t('mail.more')}>
            <EllipsisVertical aria-hidden />
          </IconButton>
        }
        content={(Menu) => (
          <>
            {isAliasUser ? null : (
              <>
                <Menu.Item asChild className={menu.item}>
                  <Link to="/contacts">
                    <Contact aria-hidden />
                    {t('mail.contacts')}
                  </Link>
                </Menu.Item>
                <Menu.Item asChild className={menu.item}>
                  <Link to="/settings">
                    <Settings aria-hidden />
                    {t('mail.settings')}
                  </Link>
                </Menu.Item>
              </>
            )}
            <Menu.Item asChild className={menu.item}>
              <Link to="/about">
                <Info aria-hidden />
                {t('mail.about')}
              </Link>
            </Menu.Item>
          </>
        )}
      />
    </MainHeader>
  );
}
