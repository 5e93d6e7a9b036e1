import type { QueryClient } from '@tanstack/react-query';
import { LIST_PAGE_SIZE, type Account } from '@mailroom/protocol';
import { hasIsLoggedCookie } from './startup';
import { sessionQueries } from '../features/account';
import { findInbox, folderQueries } from '../features/folders';
import { listOrder, lockedAliasId, mailQueries, type ListSource } from '../features/mail';

/** The page size MailScreen uses: the limit query parameter, else the per_page setting. */
function pageSize(search: URLSearchParams, account: Account): number {
  return Number(search.get('limit')) || account.settings.per_page || LIST_PAGE_SIZE;
}

/**
 * Opening the mail shell cold (DESIGN §5: Inbox drawn ≤ 1 s): the requests the first screen needs go out as soon
 * as the script runs, side by side, instead of one after another as the screens mount — start-up (user, account,
 * rid) while the language chunk still loads, the folders with them, and the first page of the list the moment its
 * folder and page size are known. The screens then find them in the query cache under the keys they use.
 * Only for a browser that was signed in (isLogged cookie) and on the mail routes that show a folder.
 */
export function warmUpMail(client: QueryClient, location: Pick<Location, 'pathname' | 'search'>): void {
  const { pathname } = location;
  const index = /^\/(mail\/?)?$/.test(pathname);
  const folderRoute = /^\/mail\/folder\/([^/]+)\/(\d+)\/(\d+)(\/|$)/.exec(pathname);
  if ((!index && !folderRoute) || !hasIsLoggedCookie()) return;
  const search = new URLSearchParams(location.search);
  const ignore = () => {};

  // A failure here is the start-up machine's to show: it reads the same queries.
  const access = client.fetchQuery(sessionQueries.access());
  const account = client.fetchQuery(sessionQueries.account());
  access.catch(ignore);
  account.catch(ignore);
  client.prefetchQuery(sessionQueries.rids()).catch(ignore);

  if (folderRoute) {
    const [, aliasId, folderId, page] = folderRoute;
    client.prefetchQuery(folderQueries.folders()).catch(ignore);
    account
      .then((settings) => {
        const source: ListSource = {
          kind: 'folder',
          id: Number(folderId),
          aliasId: aliasId!,
          page: Math.max(1, Number(page)),
          limit: pageSize(search, settings),
          order: listOrder(settings.settings),
        };
        return client.prefetchQuery(mailQueries.list(source));
      })
      .catch(ignore);
    return;
  }

  // /mail opens the Inbox (MailIndex): its id comes with the folders, the alias view with the user and account.
  Promise.all([access, account, client.fetchQuery(folderQueries.folders())])
    .then(([user, settings, { folders }]) => {
      const inbox = findInbox(folders) ?? folders[0];
      if (!inbox) return;
      const source: ListSource = {
        kind: 'folder',
        id: inbox.id,
        aliasId: lockedAliasId(user, settings) ?? 'all',
        page: 1,
        limit: pageSize(search, settings),
        order: listOrder(settings.settings),
      };
      return client.prefetchQuery(mailQueries.list(source));
    })
    .catch(ignore);
}
