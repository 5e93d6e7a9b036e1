import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import clsx from 'clsx';
import {
  ChevronDown,
  ChevronLeft,
  ChevronRight,
  FolderInput,
  Mail,
  MailOpen,
  ShieldAlert,
  ShieldCheck,
  Star,
  StarOff,
  Trash2,
} from 'lucide-react';
import { folderDisplayName } from '@mailroom/protocol';
import { Button, buttonClass } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Dropdown } from '../../ui/dropdown';
import menu from '../../ui/menu.module.css';
import { useUser } from '../auth/queries';
import { useMailScreen } from './mail-context';
import { pageRange, selectByFilter, type SelectFilter } from './list-model';
import { useSelection } from './selection-store';
import { TopPanel } from './top-panel';
import { useMailActions } from './use-mail-actions';
import { useMailKeyboard } from './use-mail-keyboard';
import { useMediaQuery } from '../../ui/use-media-query';
import { MOBILE_MAX } from '@mailroom/protocol';
import styles from './mail-toolbar.module.css';

const ignore = () => {};

/** The top panel of a folder or label list (SPEC §2) with the actions on the selected or open messages. */
export function MailToolbar({ title }: { title: string }) {
  const { t } = useTranslation();
  const screen = useMailScreen();
  const actions = useMailActions();
  const user = useUser();
  const isAliasUser = Boolean(user?.info.alias);
  const [confirm, setConfirm] = useState<'empty' | 'bulkDelete' | 'chainDelete' | null>(null);
  const selectedCount = useSelection((state) => state.keys.size);
  // With nothing ticked the actions apply to the open message; on narrow screens the reader's own bar has them.
  const openOnly = actions.canAct && selectedCount === 0 && !actions.bulk;
  // A phone's bar has room for the selection actions or the title and paging, not both.
  const phone = useMediaQuery(`(max-width: ${MOBILE_MAX - 0.02}px)`);
  const crowded = phone && (selectedCount > 0 || actions.bulk);
  const system = screen.folder?.system;
  const canEmpty = (system === 'trash' || system === 'junk') && (screen.folder?.total ?? 0) > 0;

  function remove() {
    if (actions.bulk) setConfirm('bulkDelete');
    else if (actions.hasChains) setConfirm('chainDelete');
    else void actions.remove().catch(ignore);
  }
  useMailKeyboard(screen, remove);

  const { page, limit } = screen.source;
  const total = screen.list?.total ?? 0;
  const range = pageRange(page, limit, total);
  const destinations = screen.folders.filter(
    (folder) => folder.id !== screen.folder?.id && folder.system !== 'draft',
  );

  return (
    <>
      <TopPanel
        title={title}
        titleHidden={crowded}
        leading={<SelectMenu />}
        actions={
          <div className={clsx(styles.actions, openOnly && styles.openOnly)}>
            {actions.canAct ? (
              <>
                {openOnly ? null : (
                  <span className={styles.count} aria-live="polite">
                    {t('mail.selected', { count: actions.count })}
                  </span>
                )}
                <Button
                  variant="ghost"
                  iconOnly
                  aria-label={t('mail.delete')}
                  title={t('mail.delete')}
                  onClick={remove}
                >
                  <Trash2 aria-hidden />
                </Button>
                {isAliasUser ? null : (
                  <Dropdown
                    trigger={
                      <Button variant="ghost" iconOnly aria-label={t('mail.moveTo')} title={t('mail.moveTo')}>
                        <FolderInput aria-hidden />
                      </Button>
                    }
                    content={(Menu) => (
                      <>
                        <Menu.Label className={menu.label}>{t('mail.moveTo')}</Menu.Label>
                        {destinations.map((folder) => (
                          <Menu.Item
                            key={folder.id}
                            className={menu.item}
                            onSelect={() => void actions.move(folder.id).catch(ignore)}
                          >
                            {folder.system
                              ? t(`folders.system.${folder.system}`)
                              : folderDisplayName(folder.name)}
                          </Menu.Item>
                        ))}
                      </>
                    )}
                  />
                )}
                <Dropdown
                  trigger={
                    <Button
                      variant="ghost"
                      iconOnly
                      aria-label={t('mail.markMenu')}
                      title={t('mail.markMenu')}
                    >
                      <MailOpen aria-hidden />
                    </Button>
                  }
                  content={(Menu) => (
                    <>
                      <Menu.Item
                        className={menu.item}
                        onSelect={() => void actions.mark('seen').catch(ignore)}
                      >
                        <MailOpen aria-hidden />
                        {t('mail.markRead')}
                      </Menu.Item>
                      <Menu.Item
                        className={menu.item}
                        onSelect={() => void actions.mark('unseen').catch(ignore)}
                      >
                        <Mail aria-hidden />
                        {t('mail.markUnread')}
                      </Menu.Item>
                      <Menu.Item
                        className={menu.item}
                        onSelect={() => void actions.mark('flagged').catch(ignore)}
                      >
                        <Star aria-hidden />
                        {t('mail.flag')}
                      </Menu.Item>
                      <Menu.Item
                        className={menu.item}
                        onSelect={() => void actions.mark('unflagged').catch(ignore)}
                      >
                        <StarOff aria-hidden />
                        {t('mail.unflag')}
                      </Menu.Item>
                    </>
                  )}
                />
                {system === 'junk' ? (
                  <Button
                    variant="ghost"
                    iconOnly
                    aria-label={t('mail.notSpam')}
                    title={t('mail.notSpam')}
                    onClick={() => void actions.spam().catch(ignore)}
                  >
                    <ShieldCheck aria-hidden />
                  </Button>
                ) : (
                  <Button
                    variant="ghost"
                    iconOnly
                    aria-label={t('mail.toSpam')}
                    title={t('mail.toSpam')}
                    onClick={() => void actions.spam().catch(ignore)}
                  >
                    <ShieldAlert aria-hidden />
                  </Button>
                )}
              </>
            ) : canEmpty ? (
              <Button variant="ghost" className={styles.emptyButton} onClick={() => setConfirm('empty')}>
                <Trash2 aria-hidden />
                <span>{system === 'trash' ? t('mail.emptyTrash') : t('mail.emptyJunk')}</span>
              </Button>
            ) : null}
          </div>
        }
        range={
          total > 0 && !crowded ? (
            <div className={styles.paging}>
              <span className={styles.range}>
                {t('mail.range', { from: range.from, to: range.to, total: range.total })}
              </span>
              <PageLink page={page - 1} disabled={page <= 1} label={t('mail.previousPage')}>
                <ChevronLeft aria-hidden />
              </PageLink>
              <PageLink page={page + 1} disabled={page >= range.pages} label={t('mail.nextPage')}>
                <ChevronRight aria-hidden />
              </PageLink>
            </div>
          ) : null
        }
      />
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        danger
        title={
          confirm === 'empty'
            ? t('mail.emptyConfirmTitle')
            : confirm === 'chainDelete'
              ? t('mail.chainDeleteTitle')
              : t('mail.bulkDeleteTitle')
        }
        text={
          confirm === 'empty'
            ? t('mail.emptyConfirmText', { folder: title })
            : confirm === 'chainDelete'
              ? t('mail.chainDeleteText')
              : t('mail.bulkDeleteText', { count: actions.count, folder: title })
        }
        confirmLabel={t('mail.delete')}
        onConfirm={() =>
          confirm === 'empty' ? actions.empty() : actions.remove({ chains: confirm === 'chainDelete' })
        }
      />
    </>
  );
}

function PageLink({
  page,
  disabled,
  label,
  children,
}: {
  page: number;
  disabled: boolean;
  label: string;
  children: ReactNode;
}) {
  const screen = useMailScreen();
  if (disabled) {
    return (
      <Button variant="ghost" iconOnly disabled aria-label={label} title={label}>
        {children}
      </Button>
    );
  }
  return (
    <Link
      to={screen.pathTo(page)}
      className={`${buttonClass('ghost')} ${styles.pageLink}`}
      aria-label={label}
      title={label}
    >
      {children}
    </Link>
  );
}

/** SPEC §2 select menu: the checkbox ticks the page; 'All' in the menu selects the whole folder or label (bulk). */
function SelectMenu() {
  const { t } = useTranslation();
  const screen = useMailScreen();
  const keys = useSelection((state) => state.keys);
  const bulk = useSelection((state) => state.bulk);
  const set = useSelection((state) => state.set);
  const items = screen.list?.messages ?? [];
  const all = items.length > 0 && (bulk || items.every((item) => keys.has(`${item.folder_id}:${item.uid}`)));
  const some = keys.size > 0 && !all;

  function choose(filter: SelectFilter | 'everything') {
    if (filter === 'everything') set(selectByFilter(items, 'all'), true);
    else set(selectByFilter(items, filter));
  }

  return (
    <div className={styles.select}>
      <input
        type="checkbox"
        className={styles.selectBox}
        aria-label={t('mail.selectPage')}
        checked={all}
        ref={(element) => {
          if (element) element.indeterminate = some;
        }}
        disabled={items.length === 0}
        onChange={() => choose(all || some ? 'none' : 'all')}
      />
      <Dropdown
        trigger={
          <button
            type="button"
            className={styles.selectMore}
            aria-label={t('mail.selectMenu')}
            disabled={items.length === 0}
          >
            <ChevronDown aria-hidden />
          </button>
        }
        content={(Menu) => (
          <>
            <Menu.Item className={menu.item} onSelect={() => choose('everything')}>
              {t('mail.selectAll')}
            </Menu.Item>
            <Menu.Item className={menu.item} onSelect={() => choose('read')}>
              {t('mail.selectRead')}
            </Menu.Item>
            <Menu.Item className={menu.item} onSelect={() => choose('unread')}>
              {t('mail.selectUnread')}
            </Menu.Item>
            <Menu.Item className={menu.item} onSelect={() => choose('marked')}>
              {t('mail.selectMarked')}
            </Menu.Item>
            <Menu.Item className={menu.item} onSelect={() => choose('unmarked')}>
              {t('mail.selectUnmarked')}
            </Menu.Item>
            <Menu.Separator className={menu.separator} />
            <Menu.Item className={menu.item} onSelect={() => choose('none')}>
              {t('mail.selectNone')}
            </Menu.Item>
          </>
        )}
      />
    </div>
  );
}
