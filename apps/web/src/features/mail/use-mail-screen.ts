import { useCallback, useEffect, useMemo, useRef } from 'react';
import { LIST_PAGE_SIZE, SEARCH_PAGE_SIZE, type MailListItem } from '@mailroom/protocol';
import { ApiError, isUnauthorized } from '../../api/client';
import { raiseError } from '../../api/error-message';
import { findInbox, flattenFolders, folderPath, labelPath, useFolders } from '../folders';
import { useLocation, useLocationState, useNavigate, useParams, useSearchParams } from '../../lib/router';
import { useAccount, useUser } from '../account';
import {
  keyboardSequence,
  listOrder,
  messageKey,
  messageRouteId,
  pageRange,
  parseMessageRouteId,
  stepFrom,
  type ListSource,
} from './list-model';
import type { MailScreenContext } from './mail-context';
import { useMessageList } from './queries';
import { useSelection } from './selection-store';
import { parseSearchParams, searchPath } from '../search';
import { useCompose } from '../compose';
import { lockedAliasId } from './locked-alias';
import { loadReader, loadSelectionActions } from './loaders';

/** After paging with the keyboard, which message of the new page to open. */
interface PickState {
  pick?: 'first' | 'last';
}

export interface MailScreenController {
  /** What the list, the toolbar and the reader share (MailContext). */
  context: MailScreenContext;
  /** Where the screen must go instead of drawing (an alias-only user elsewhere, a folder that is gone), or null. */
  redirect: string | null;
  /** The route names a message: the reader pane shows it (else the empty reader). */
  messageInRoute: boolean;
}

/**
 * The mail screen's controller (SPEC §2, §4): reads the route (folder, label or search; page; open message), loads
 * the list, keeps the selection's view, and holds the navigation the list, toolbar and reader share — opening a
 * message, stepping with the keyboard across pages, paging back from an emptied page, drafts to compose, and the
 * folder id the server refuses. MailScreen only draws what this returns.
 */
export function useMailScreenController(kind: ListSource['kind']): MailScreenController {
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
  const order = listOrder(account?.settings);
  const source = useMemo<ListSource>(
    () => ({ kind, id, aliasId, page, limit, order, ...(searched ? { search: searched.form } : {}) }),
    [kind, id, aliasId, page, limit, order, searched],
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
      void loadReader().catch(() => {});
      void loadSelectionActions().catch(() => {});
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

  let redirect: string | null = null;
  // An alias-only user on another alias's route goes back to their own mail (SPEC §6).
  if (locked !== null && aliasId !== locked) redirect = '/mail';
  else if (kind === 'folder' && folders.data && !folder) {
    const inbox = findInbox(folders.data);
    if (inbox && inbox.id !== id) redirect = folderPath(aliasId, inbox.id);
  }

  return { context, redirect, messageInRoute: params.msg_id !== undefined };
}
