import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { FolderX, Inbox } from 'lucide-react';
import { REDIRECT_COOKIE, isSafeRedirectPath } from '@mailroom/protocol';
import { deleteCookie, readCookie } from '../../lib/cookies';
import { isFramed } from '../../lib/frame';
import { findInbox, flattenFolders, folderLabel, folderPath, useFolders, useLabels } from '../folders';
import { Navigate, useLocationState, useSearchParams } from '../../lib/router';
import { ComingSoon } from '../../ui/coming-soon';
import { Preloader } from '../../ui/preloader';
import { Button } from '../../ui/button';
import { useAccount, useUser } from '../account';
import { lockedAliasId } from './locked-alias';
import { readMailLink, useMailLinkTarget } from './mail-links';
import { MailScreen } from './mail-screen';
import styles from './mail-views.module.css';

/**
 * /mail: the Inbox. Right after sign-in the user lands here from '/', and a path saved in the redirect cookie
 * before sign-in wins, if it is a safe same-origin path (SPEC §2 guard; not inside a frame, where the host decides).
 */
export function MailIndex() {
  const { t } = useTranslation();
  const folders = useFolders();
  const locked = lockedAliasId(useUser(), useAccount());
  const fromRoot = useLocationState<{ fromRoot: boolean }>()?.fromRoot === true;
  // A link's query (SPEC §2), read once: /mail?message_id=…, ?uid=, ?label=, ?sender=, ?recipient=.
  const search = useSearchParams();
  const [link] = useState(() => readMailLink(search));
  // Read once per visit: later renders (folders arriving) must not forget where we were going.
  const [saved] = useState(() => (fromRoot && !isFramed() ? readCookie(REDIRECT_COOKIE) : null));
  // The cookie is spent once read; cleared in an effect so a repeated render still sees it.
  useEffect(() => {
    if (saved !== null) deleteCookie(REDIRECT_COOKIE);
  }, [saved]);
  const inbox = folders.data ? (findInbox(folders.data) ?? folders.data[0]) : undefined;
  const linked = useMailLinkTarget(link, locked ?? 'all', inbox?.id);
  if (saved !== null && isSafeRedirectPath(saved) && !/^\/(mail\/?)?$/.test(saved)) {
    return <Navigate to={saved} replace />;
  }
  if (linked) return <Navigate to={linked} replace />;
  if (linked === null) return <Preloader />;
  if (folders.data) {
    if (inbox) return <Navigate to={folderPath(locked ?? 'all', inbox.id)} replace />;
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

export function FolderView() {
  const { t } = useTranslation();
  const folders = useFolders();
  return (
    <MailScreen
      kind="folder"
      title={(source) => {
        const folder = folders.data
          ? flattenFolders(folders.data).find((f) => f.id === source.id)
          : undefined;
        if (!folder) return '';
        return folderLabel(folder, t);
      }}
    />
  );
}

export function LabelView() {
  const { t } = useTranslation();
  const labels = useLabels();
  return (
    <MailScreen
      kind="label"
      title={(source) => labels.data?.find((label) => label.id === source.id)?.name ?? t('mail.labelTitle')}
    />
  );
}

/** Search results (SPEC §2 search route): the message list and reader over POST messages/search. */
export function SearchView() {
  const { t } = useTranslation();
  return <MailScreen kind="search" title={() => t('mail.searchTitle')} />;
}
