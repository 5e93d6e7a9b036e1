import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { FolderX, Inbox } from 'lucide-react';
import { REDIRECT_COOKIE, isSafeRedirectPath } from '@mailroom/protocol';
import { deleteCookie, readCookie } from '../../lib/cookies';
import { isFramed } from '../../lib/frame';
import { findInbox, flattenFolders, folderLabel, folderPath, useFolders, useLabels } from '../folders';
import { Navigate, useLocationState, useSearchParams } from '../../lib/router';
import { Lazy, lazyChunk } from '../../ui/lazy-route';
import { Preloader } from '../../ui/preloader';
import { Button } from '../../ui/button';
import { useAccount, useUser } from '../account';
import { lockedAliasId } from './locked-alias';
import { MailScreen } from './mail-screen';
import styles from './mail-views.module.css';

/** The parameters of a link's query (SPEC §2): mail-links.ts reads them. */
const linkParameters = ['message_id', 'uid', 'label', 'sender', 'recipient', 'group'];

// What a link's query asks for is worked out by code that loads only for such a link (DESIGN §5).
const LinkedMailIndex = lazyChunk(() => import('./linked-mail-index'));
// The stand-in for a mailbox without a single folder: so rarely shown that it loads when it is (DESIGN §5).
const ComingSoon = lazyChunk(() =>
  import('../../ui/coming-soon').then((module) => ({ default: module.ComingSoon })),
);

/**
 * /mail: the Inbox, or where a link's query leads (/mail?message_id=…, ?uid=, ?label=, ?sender=, ?recipient=,
 * ?group=: linked-mail-index.tsx, read once).
 */
export function MailIndex() {
  const search = useSearchParams();
  const [linked] = useState(() => linkParameters.some((name) => search.has(name)));
  if (!linked) return <MailHome target={undefined} />;
  return (
    <Lazy>
      <LinkedMailIndex />
    </Lazy>
  );
}

/**
 * The Inbox, unless `target` (a link's, from useMailLinkTarget) leads elsewhere or is still being looked up
 * (null). Right after sign-in the user lands here from '/', and a path saved in the redirect cookie before sign-in
 * wins, if it is a safe same-origin path (SPEC §2 guard; not inside a frame, where the host decides).
 */
export function MailHome({ target }: { target: string | null | undefined }) {
  const { t } = useTranslation();
  const folders = useFolders();
  const locked = lockedAliasId(useUser(), useAccount());
  const fromRoot = useLocationState<{ fromRoot: boolean }>()?.fromRoot === true;
  // Read once per visit: later renders (folders arriving) must not forget where we were going.
  const [saved] = useState(() => (fromRoot && !isFramed() ? readCookie(REDIRECT_COOKIE) : null));
  // The cookie is spent once read; cleared in an effect so a repeated render still sees it.
  useEffect(() => {
    if (saved !== null) deleteCookie(REDIRECT_COOKIE);
  }, [saved]);
  const inbox = folders.data ? (findInbox(folders.data) ?? folders.data[0]) : undefined;
  if (saved !== null && isSafeRedirectPath(saved) && !/^\/(mail\/?)?$/.test(saved)) {
    return <Navigate to={saved} replace />;
  }
  if (target) return <Navigate to={target} replace />;
  if (target === null) return <Preloader />;
  if (folders.data) {
    if (inbox) return <Navigate to={folderPath(locked ?? 'all', inbox.id)} replace />;
    return (
      <Lazy>
        <ComingSoon title={t('mail.listSoonTitle')} icon={Inbox} />
      </Lazy>
    );
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
