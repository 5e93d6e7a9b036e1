import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import clsx from 'clsx';
import { BookOpen, FolderX, Inbox, MailOpen, SearchX, Tag } from 'lucide-react';
import { LIST_PAGE_SIZE, REDIRECT_COOKIE, isSafeRedirectPath } from '@mailroom/protocol';
import { deleteCookie, readCookie } from '../../app/cookies';
import { isFramed } from '../../app/frame';
import { folderPath } from '../../app/paths';
import { ComingSoon } from '../../ui/coming-soon';
import { Preloader } from '../../ui/preloader';
import { Button } from '../../ui/button';
import { useAccount } from '../auth/queries';
import { findInbox, flattenFolders } from './folder-order';
import { useFolders } from './queries';
import { TopPanel } from './top-panel';
import styles from './mail-views.module.css';

/**
 * /mail: the Inbox. Right after sign-in the user lands here from '/', and a path saved in the redirect cookie
 * before sign-in wins, if it is a safe same-origin path (SPEC §2 guard; not inside a frame, where the host decides).
 */
export function MailIndex() {
  const { t } = useTranslation();
  const location = useLocation();
  const folders = useFolders();
  const fromRoot = (location.state as { fromRoot?: boolean } | null)?.fromRoot === true;
  // Read once per visit: later renders (folders arriving) must not forget where we were going.
  const [saved] = useState(() => (fromRoot && !isFramed() ? readCookie(REDIRECT_COOKIE) : null));
  // The cookie is spent once read; cleared in an effect so a repeated render still sees it.
  useEffect(() => {
    if (saved !== null) deleteCookie(REDIRECT_COOKIE);
  }, [saved]);
  if (saved !== null && isSafeRedirectPath(saved) && !/^\/(mail\/?)?$/.test(saved)) {
    return <Navigate to={saved} replace />;
  }
  if (folders.data) {
    const inbox = findInbox(folders.data) ?? folders.data[0];
    if (inbox) return <Navigate to={folderPath('all', inbox.id)} replace />;
    return <ComingSoon title={t('mail.listSoonTitle')} icon={Inbox} />;
  }
  if (folders.isError) {
    return (
      <div className={styles.readerEmpty} role="alert">
        <FolderX aria-hidden />
        <h2>{t('folders.loadFailed')}</h2>
        <Button variant="primary" onClick={() => void folders.refetch()}>
          {t('app.retry')}
        </Button>
      </div>
    );
  }
  return <Preloader />;
}

function usePageRange(total: number | undefined): string | null {
  const { t } = useTranslation();
  const account = useAccount();
  const { page } = useParams();
  if (!total) return null;
  const perPage = account?.settings.per_page ?? LIST_PAGE_SIZE;
  const pageNumber = Math.max(1, Number(page) || 1);
  const from = Math.min(total, (pageNumber - 1) * perPage + 1);
  const to = Math.min(total, pageNumber * perPage);
  return t('mail.range', { from, to, total });
}

function MailPanes({ list }: { list: ReactNode }) {
  const { t } = useTranslation();
  const { msg_id } = useParams();
  return (
    <div className={clsx(styles.panes, msg_id && styles.withMessage)}>
      <section className={styles.list} aria-label={t('mail.list')}>
        {list}
      </section>
      <section className={styles.reader}>
        <Outlet />
      </section>
    </div>
  );
}

export function FolderView() {
  const { t } = useTranslation();
  const { f_id } = useParams();
  const folders = useFolders();
  const all = folders.data ? flattenFolders(folders.data) : [];
  const folder = all.find((candidate) => String(candidate.id) === f_id);
  const range = usePageRange(folder?.total);
  if (folders.data && !folder) {
    const inbox = findInbox(folders.data);
    if (inbox && String(inbox.id) !== f_id) return <Navigate to={folderPath('all', inbox.id)} replace />;
  }
  const title = folder
    ? folder.system
      ? t(`folders.system.${folder.system}`)
      : (folder.name.split('.').filter(Boolean).pop() ?? folder.name)
    : '';
  return (
    <>
      <TopPanel title={title} range={range} />
      <MailPanes
        list={<ComingSoon title={t('mail.listSoonTitle')} text={t('mail.listSoonText')} icon={Inbox} />}
      />
    </>
  );
}

export function LabelView() {
  const { t } = useTranslation();
  return (
    <>
      <TopPanel title={t('mail.labelTitle')} />
      <MailPanes list={<ComingSoon title={t('mail.labelSoonTitle')} icon={Tag} />} />
    </>
  );
}

export function SearchView() {
  const { t } = useTranslation();
  const { search_text } = useParams();
  const text = search_text && search_text !== 'false' ? search_text : '';
  return (
    <>
      <TopPanel title={t('mail.searchTitle')} />
      <MailPanes
        list={
          <ComingSoon
            title={t('mail.searchSoonTitle')}
            text={text ? t('mail.searchSoonText', { text }) : undefined}
            icon={SearchX}
          />
        }
      />
    </>
  );
}

export function ReaderEmpty() {
  const { t } = useTranslation();
  return (
    <div className={styles.readerEmpty}>
      <MailOpen aria-hidden />
      <h2>{t('mail.readerEmptyTitle')}</h2>
      <p>{t('mail.readerEmptyText')}</p>
    </div>
  );
}

export function ReaderPlaceholder() {
  const { t } = useTranslation();
  const { msg_id } = useParams();
  return (
    <ComingSoon
      title={t('mail.readerSoonTitle')}
      text={t('mail.readerSoonText', { id: msg_id })}
      icon={BookOpen}
    />
  );
}
