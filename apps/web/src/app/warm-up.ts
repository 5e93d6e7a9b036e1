import type { QueryClient } from '@tanstack/react-query';
import { firstScreenRoute, listPageSize } from '@mailroom/protocol';
import { hasIsLoggedCookie } from './startup';
import { sessionQueries } from '../features/account';
import { findInbox, folderQueries } from '../features/folders';
import { listOrder, lockedAliasId, mailQueries, type ListSource } from '../features/mail';

/**
 * Opening the mail shell cold (DESIGN §5: Inbox drawn ≤ 1 s): the requests the first screen needs go out as soon
 * as the script runs, side by side, instead of one after another as the screens mount — start-up (user, account,
 * rid) while the language chunk still loads, the folders with them, and the first page of the list the moment its
 * folder and page size are known. The screens then find them in the query cache under the keys they use.
 * Only for a browser that was signed in (isLogged cookie) and on the mail routes that show a folder. For a signed-in
 * browser the server has usually written these answers into index.html already (lib/first-screen.ts): then they
 * resolve at once, without a request.
 */
export function warmUpMail(client: QueryClient, location: Pick<Location, 'pathname' | 'search'>): void {
  const route = firstScreenRoute(location.pathname);
  if (!route || !hasIsLoggedCookie()) return;
  const search = new URLSearchParams(location.search);
  const ignore = () => {};

  // A failure here is the start-up machine's to show: it reads the same queries.
  const access = client.fetchQuery(sessionQueries.access());
  const account = client.fetchQuery(sessionQueries.account());
  client.prefetchQuery(sessionQueries.rids()).catch(ignore);
  const folders = client.fetchQuery(folderQueries.folders());

  // A folder's page needs the account (its size and order); /mail opens the Inbox (MailIndex), whose id comes with
  // the folders and whose alias view with the user and account.
  Promise.all([access, account, route.kind === 'folder' ? null : folders])
    .then(([user, settings, tree]) => {
      const inbox = tree && (findInbox(tree.folders) ?? tree.folders[0]);
      const page =
        route.kind === 'folder'
          ? { id: route.folderId, aliasId: route.aliasId, page: route.page }
          : inbox && { id: inbox.id, aliasId: lockedAliasId(user, settings) ?? 'all', page: 1 };
      if (!page) return;
      const source: ListSource = {
        kind: 'folder',
        ...page,
        limit: listPageSize(search, settings),
        order: listOrder(settings.settings),
      };
      return client.prefetchQuery(mailQueries.list(source));
    })
    .catch(ignore);
  folders.catch(ignore);
}
