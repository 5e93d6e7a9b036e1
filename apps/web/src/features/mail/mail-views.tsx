import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import clsx from 'clsx';
import { FolderX, Inbox, MailOpen, PenSquare } from 'lucide-react';
import {
  DESKTOP_SPLIT_MIN,
  LIST_PAGE_SIZE,
  REDIRECT_COOKIE,
  SEARCH_PAGE_SIZE,
  SPLITTER_DEFAULT,
  SPLITTER_MIN_WIDTHS,
  isSafeRedirectPath,
  type MailListItem,
} from '@mailroom/protocol';
import { ApiError, isUnauthorized } from '../../api/client';
import { raiseError } from '../../api/error-message';
import { deleteCookie, readCookie } from '../../lib/cookies';
import { isFramed } from '../../lib/frame';
import { findInbox, flattenFolders, folderPath, labelPath, useFolders, useLabels } from '../folders';
import {
  Navigate,
  useLocation,
  useLocationState,
  useNavigate,
  useParams,
  useSearchParams,
} from '../../lib/router';
import { Lazy, lazyRoute } from '../../ui/lazy-route';
import { ComingSoon } from '../../ui/coming-soon';
import { Preloader } from '../../ui/preloader';
import { Button } from '../../ui/button';
import { useMediaQuery } from '../../ui/use-media-query';
import { SplitPanes } from '../../ui/split-panes';
import { useAccount, useUser } from '../account';
import type { AccessResponse, Account } from '@mailroom/protocol';
import {
  keyboardSequence,
  messageKey,
  messageRouteId,
  pageRange,
  parseMessageRouteId,
  stepFrom,
  type ListSource,
} from './list-model';
import { MailContext, type MailScreenContext } from './mail-context';
import { MailToolbar } from './mail-toolbar';
import { MessageList } from './message-list';
import { useMessageList } from './queries';
import { useSelection } from './selection-store';
import { parseSearchParams, searchPath } from '../search';
import { useCompose } from '../compose';
import styles from './mail-views.module.css';

// The reader brings DOMPurify and the attachment list: it loads when a message is first opened (DESIGN §5).
const Reader = lazyRoute(() => import('./reader'));

/** Where the list's share of the two panes is remembered (SPEC §2 splitter). */
const PANES_STORAGE_KEY = 'mailroom:panes';

/**
 * The a_id an alias-only user is kept to (SPEC §6: alias selector locked): their alias's id, or null for a full
 * member, who may look at any alias or 'all'.
 */
export function lockedAliasId(user: AccessResponse | undefined, account: Account | undefined): string | null {
  const alias = user?.info.alias;
  if (!alias) return null;
  const match = account?.aliases.find((candidate) => candidate.email.toLowerCase() === alias.toLowerCase());
  return match ? String(match.id) : 'all';
}

/**
 * /mail: the Inbox. Right after sign-in the user lands here from '/', and a path saved in the redirect cookie
 * before sign-in wins, if it is a safe same-origin path (SPEC §2 guard; not inside a frame, where the host decides).
 */
export function MailIndex() {
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
  if (saved !== null && isSafeRedirectPath(saved) && !/^\/(mail\/?)?$/.test(saved)) {
    return <Navigate to={saved} replace />;
  }
  if (folders.data) {
    const inbox = findInbox(folders.data) ?? folders.data[0];
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

/** After paging with the keyboard, which message of the new page to open. */
interface PickState {
  pick?: 'first' | 'last';
}

function MailScreen({ kind, title }: { kind: ListSource['kind']; title: (source: ListSource) => string }) {
  const params = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const searchParams = useSearchParams();
  const account = useAccount();
  const locked = lockedAliasId(useUser(), account);
  const folders = useFolders();
  const aliasId = params.a_id ?? 'all';
  // The route's search (SPEC §2 search route); rebuilt only when the path changes.
  const searchKey = kind === 'search' ? location.pathname.split('/').slice(0, 14).join('/') : '';
  const searched = useMemo(
    () => (kind === 'search' ? parseSearchParams(params) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the parameters are all in searchKey
    [kind, searchKey],
  );
  const id =
    kind === 'search' ? (searched?.folderId ?? 0) : Number(kind === 'folder' ? params.f_id : params.l_id);
  const page = Math.max(1, Math.floor(Number(params.page)) || 1);
  // The limit query parameter sets the page size (SPEC §2), else the per_page setting (searches page by 20).
  const limit =
    Number(searchParams.get('limit')) ||
    (kind === 'search' ? SEARCH_PAGE_SIZE : account?.settings.per_page || LIST_PAGE_SIZE);
  const source = useMemo<ListSource>(
    () => ({ kind, id, aliasId, page, limit, ...(searched ? { search: searched.form } : {}) }),
    [kind, id, aliasId, page, limit, searched],
  );
  const list = useMessageList(kind === 'search' || (Number.isInteger(id) && id > 0) ? source : null);
  const allFolders = useMemo(() => (folders.data ? flattenFolders(folders.data) : []), [folders.data]);
  const folder = kind === 'folder' ? (allFolders.find((candidate) => candidate.id === id) ?? null) : null;
  const open = parseMessageRouteId(params.msg_id, kind, kind === 'folder' ? id : null);
  const openKey = open ? messageKey({ folder_id: open.folderId, uid: open.uid }) : null;
  const search = location.search;

  // The reader and the actions are separate chunks; fetch them once the list has drawn, before they are needed.
  const listReady = list.data !== undefined;
  useEffect(() => {
    if (!listReady) return;
    const prefetch = () => {
      void import('./reader').catch(() => {});
      void import('./selection-actions').catch(() => {});
    };
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(prefetch);
    else window.setTimeout(prefetch, 200);
  }, [listReady]);

  const setView = useSelection((state) => state.setView);
  useEffect(
    () => setView(`${kind}:${id}:${aliasId}:${page}:${searchKey}`),
    [kind, id, aliasId, page, searchKey, setView],
  );

  const pathTo = useCallback(
    (toPage: number, item?: Pick<MailListItem, 'folder_id' | 'uid'> | null) => {
      const base =
        kind === 'folder'
          ? folderPath(aliasId, id, toPage)
          : kind === 'label'
            ? labelPath(aliasId, id, toPage)
            : searchPath(
                aliasId,
                searched?.folderId ?? null,
                searched?.labelId ?? null,
                toPage,
                searched!.form,
              );
      return `${base}${item ? `/${messageRouteId(item, kind)}` : ''}${search}`;
    },
    [kind, aliasId, id, search, searched],
  );

  const items = list.data?.messages;
  const total = list.data?.total ?? 0;
  const pages = pageRange(page, limit, total).pages;

  // The message we last navigated to. Keys pressed faster than React renders the new route would otherwise step
  // from the previous message (or from none, right after crossing a page) and be lost.
  const openRef = useRef(openKey);
  // Where our own last navigation is going; renders of the routes passed on the way must not pull openRef back.
  const pendingRef = useRef<string | null>(null);
  useEffect(() => {
    if (pendingRef.current === null || pendingRef.current === openKey) {
      openRef.current = openKey;
      pendingRef.current = null;
    }
  }, [openKey]);
  const openItem = useCallback(
    (item: Pick<MailListItem, 'folder_id' | 'uid'>, options?: { replace?: boolean }) => {
      openRef.current = messageKey(item);
      pendingRef.current = openRef.current;
      navigate(pathTo(page, item), options);
    },
    [navigate, pathTo, page],
  );

  const step = useCallback(
    (direction: 1 | -1) => {
      if (!items) return;
      const current = openRef.current;
      const sequence = keyboardSequence(
        items,
        useSelection.getState().openedChains,
        kind === 'folder' ? id : null,
      );
      const index = current ? sequence.findIndex((item) => messageKey(item) === current) : -1;
      const next = stepFrom(index, direction, sequence.length, page, pages);
      if (next.kind === 'open') openItem(sequence[next.index]!);
      else if (next.kind === 'page') {
        openRef.current = null;
        pendingRef.current = null;
        navigate(pathTo(next.page), { state: { pick: next.pick } satisfies PickState });
      }
    },
    [items, kind, id, page, pages, navigate, pathTo, openItem],
  );

  // The other half of paging across a boundary: open the first or last message once the new page is here.
  const pick = useLocationState<PickState>()?.pick;
  useEffect(() => {
    if (!pick || !items) return;
    const item = pick === 'first' ? items[0] : items[items.length - 1];
    if (item) openItem(item, { replace: true });
  }, [pick, items, openItem]);

  // An empty page above 1 (the last messages were moved away) goes to the previous page (SPEC §4).
  useEffect(() => {
    if (items && items.length === 0 && page > 1) navigate(pathTo(page - 1), { replace: true });
  }, [items, page, navigate, pathTo]);

  // A folder id the server refuses goes to the first folder (SPEC §8).
  const listError = list.error;
  useEffect(() => {
    if (!listError) return;
    if (listError instanceof ApiError && listError.code === 'request_folder_id_error') {
      if (folders.data?.[0]) navigate(folderPath(aliasId, folders.data[0].id), { replace: true });
      return;
    }
    // Anything else is shown in the error dialog (SPEC §8); the list offers a retry.
    if (!isUnauthorized(listError)) raiseError(listError);
  }, [listError, folders.data, aliasId, navigate]);

  // A message in Drafts opens in the compose window however it was reached — a click, the arrow keys or a link
  // (SPEC §4): the compose window takes it and the list stays.
  const draftsId = allFolders.find((candidate) => candidate.system === 'draft')?.id;
  const openDraftUid = open && open.folderId === draftsId ? open.uid : null;
  useEffect(() => {
    if (openDraftUid === null || draftsId === undefined) return;
    useCompose.getState().openCompose({ mode: 0, draft: { folder_id: draftsId, uid: openDraftUid } });
    openRef.current = null;
    navigate(pathTo(page), { replace: true });
  }, [openDraftUid, draftsId, navigate, pathTo, page]);

  const context = useMemo<MailScreenContext>(
    () => ({
      source,
      folder,
      folders: allFolders,
      list: list.data,
      listPending: list.isPending && !list.isError,
      listFailed: list.isError && !list.data,
      retryList: () => void list.refetch(),
      openKey,
      pathTo,
      // A message in Drafts opens in the compose window instead of the reader (SPEC §4).
      openMessage: (item) => {
        const folderOf = allFolders.find((candidate) => candidate.id === item.folder_id);
        if (folderOf?.system !== 'draft') openItem(item);
        else useCompose.getState().openCompose({ mode: 0, draft: { folder_id: folderOf.id, uid: item.uid } });
      },
      closeMessage: () => {
        useSelection.getState().setFullscreen(false);
        navigate(pathTo(page));
      },
      step,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- list.refetch is stable; the flags are listed
    [
      source,
      folder,
      allFolders,
      list.data,
      list.isPending,
      list.isError,
      openKey,
      pathTo,
      navigate,
      page,
      step,
    ],
  );

  // An alias-only user on another alias's route goes back to their own mail (SPEC §6).
  if (locked !== null && aliasId !== locked) return <Navigate to="/mail" replace />;

  if (kind === 'folder' && folders.data && !folder) {
    const inbox = findInbox(folders.data);
    if (inbox && inbox.id !== id) return <Navigate to={folderPath(aliasId, inbox.id)} replace />;
  }

  return (
    <MailContext.Provider value={context}>
      <MailToolbar title={title(source)} />
      <MailPanes
        hasMessage={openKey !== null}
        list={<MessageList />}
        reader={params.msg_id === undefined ? <ReaderEmpty /> : <ReaderRoute />}
      />
    </MailContext.Provider>
  );
}

function MailPanes({
  list,
  reader: content,
  hasMessage,
}: {
  list: ReactNode;
  reader: ReactNode;
  hasMessage: boolean;
}) {
  const { t } = useTranslation();
  const desktop = useMediaQuery(`(min-width: ${DESKTOP_SPLIT_MIN}px)`, true);
  const fullscreen = useSelection((state) => state.fullscreen) && hasMessage;
  const reader = (
    <section className={styles.reader} aria-label={t('mail.reader')}>
      {content}
    </section>
  );
  const listPane = (
    // Not a named region: the grid inside is 'Messages', and e2e tests find the reader as the region 'Message'.
    <div className={styles.list}>{list}</div>
  );
  if (desktop && !fullscreen) {
    return (
      <SplitPanes
        className={styles.panes}
        first={listPane}
        second={reader}
        defaultShare={SPLITTER_DEFAULT[0]}
        minWidths={SPLITTER_MIN_WIDTHS}
        storageKey={PANES_STORAGE_KEY}
        label={t('mail.splitter')}
      />
    );
  }
  return (
    <div
      className={clsx(
        styles.panes,
        (hasMessage || fullscreen) && styles.withMessage,
        fullscreen && styles.fullscreen,
      )}
    >
      {listPane}
      {reader}
      {hasMessage ? null : (
        <Button
          variant="primary"
          iconOnly
          className={styles.fab}
          aria-label={t('sidebar.newMessage')}
          title={t('sidebar.newMessage')}
          onClick={() => useCompose.getState().openCompose({ mode: 0 })}
        >
          <PenSquare aria-hidden />
        </Button>
      )}
    </div>
  );
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
        return folder.system
          ? t(`folders.system.${folder.system}`)
          : (folder.name.split('.').filter(Boolean).pop() ?? folder.name);
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

function ReaderEmpty() {
  const { t } = useTranslation();
  return (
    <div className={styles.readerEmpty}>
      <MailOpen aria-hidden />
      <h2>{t('mail.readerEmptyTitle')}</h2>
      <p>{t('mail.readerEmptyText')}</p>
    </div>
  );
}

/** With a msg_id in the route: the reader, loaded on first use. */
function ReaderRoute() {
  return (
    <Lazy>
      <Reader />
    </Lazy>
  );
}
