import type { QueryClient } from '@tanstack/react-query';
import type { Folder } from '@mailroom/protocol';
import { folderKeys } from './queries';

function inboxUnread(folders: readonly Folder[] | undefined): number {
  return folders?.find((folder) => folder.system === 'inbox')?.unread ?? 0;
}

/** "(3) Mailroom": the Inbox's unread count in the tab title. */
export function documentTitle(appName: string, unread: number): string {
  return unread > 0 ? `(${unread}) ${appName}` : appName;
}

/** Keeps the tab title's unread count in step with the folders query; returns the function that stops it. */
export function watchUnreadTitle(client: QueryClient, appName: string): () => void {
  const update = () => {
    const data = client.getQueryData<{ folders: Folder[] }>(folderKeys.folders);
    document.title = documentTitle(appName, inboxUnread(data?.folders));
  };
  update();
  return client.getQueryCache().subscribe((change) => {
    if (change.query.queryKey[0] === folderKeys.folders[0]) update();
  });
}
