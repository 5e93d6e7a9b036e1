import type { ReactNode } from 'react';
import { useTranslation, withFeatureTexts } from '../../i18n';
import { loadSelectionActions } from './loaders';
import { ChevronDown, ChevronLeft, ChevronRight } from 'lucide-react';
import { Link } from '../../lib/router';
import { buttonClass } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { Dropdown } from '../../ui/dropdown';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import menu from '../../ui/menu.module.css';
import { useMailScreen } from './mail-context';
import { pageRange, selectByFilter, type SelectFilter } from './list-model';
import { useSelection } from './selection-store';
import { TopPanel } from '../shell';
import { useMailKeyboard } from './use-mail-keyboard';
import { useMediaQuery } from '../../ui/use-media-query';
import { MOBILE_MAX } from '@mailroom/protocol';
import styles from './mail-toolbar.module.css';

const SelectionActions = lazyChunk(loadSelectionActions);
// Search results only: out of the shell's first load (DESIGN §5).
const SearchExport = lazyChunk(withFeatureTexts(() => import('./search-export')));

/** The top panel of a folder or label list (SPEC §2); the actions load once there is something to act on. */
export function MailToolbar({ title }: { title: string }) {
  const screen = useMailScreen();
  const keys = useSelection((state) => state.keys);
  const bulk = useSelection((state) => state.bulk);
  const selecting = keys.size > 0 || bulk;
  // A phone's bar has room for the selection actions or the title and paging, not both.
  const phone = useMediaQuery(`(max-width: ${MOBILE_MAX - 0.02}px)`);
  const crowded = phone && selecting;
  const system = screen.folder?.system;
  const canEmpty = (system === 'trash' || system === 'junk') && (screen.folder?.total ?? 0) > 0;
  const showActions = selecting || screen.openKey !== null || canEmpty;
  useMailKeyboard(screen);

  const { t } = useTranslation();
  const { page, limit } = screen.source;
  const total = screen.list?.total ?? 0;
  const range = pageRange(page, limit, total);

  return (
    <>
      <TopPanel
        title={title}
        crowded={crowded}
        leading={<SelectMenu />}
        actions={
          showActions ? (
            <LazyPart>
              <SelectionActions title={title} canEmpty={canEmpty} />
            </LazyPart>
          ) : null
        }
        range={
          // A phone's bar has no room to spare for two disabled arrows: one page shows no paging there.
          total > 0 && !crowded && !(phone && range.pages <= 1) ? (
            <div className={styles.paging}>
              {screen.source.kind === 'search' ? (
                <LazyPart>
                  <SearchExport />
                </LazyPart>
              ) : null}
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
      <IconButton label={label} disabled>
        {children}
      </IconButton>
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
