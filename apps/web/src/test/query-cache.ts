import { QueryClient } from '@tanstack/react-query';

/** A query client holding `{ loaded: true }` under each of `keys`, as if each query had been read once. */
export function clientWith(keys: readonly (readonly unknown[])[]): QueryClient {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData([...key], { loaded: true });
  return client;
}

/** Whether the query under `key` was marked to be read again (undefined when the client never held it). */
export const stale = (client: QueryClient, key: readonly unknown[]) =>
  client.getQueryState([...key])?.isInvalidated;
