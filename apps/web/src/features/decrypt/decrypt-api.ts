import type { DecryptParams } from '@mailroom/protocol';
import { ApiError, call, routeUrl, routes } from '../../api/client';

/**
 * Where an encrypted message is opened from: the public /decrypt page knows its id; the reader
 * knows the notice it holds (folder and UID) and asks messages/decrypt, which finds the id.
 */
export interface DecryptSource {
  params(): Promise<DecryptParams>;
  /** The ciphertext, once the server accepts the authentication value. */
  open(auth: string): Promise<Uint8Array>;
}

async function postForBytes(path: string, body: unknown): Promise<Uint8Array> {
  const response = await fetch(path, {
    method: 'POST',
    headers: {
      Accept: 'application/octet-stream, application/json',
      'Content-Type': 'application/json',
      'X-Mailroom-Csrf': '1',
    },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!response.ok) {
    type ErrorJson = { error?: { message?: string; meta?: { code?: number; i8s?: string } } };
    const error = (await response.json().catch(() => null)) as ErrorJson | null;
    throw new ApiError(
      error?.error?.meta?.code ?? response.status,
      error?.error?.message ?? response.statusText,
      error?.error?.meta?.i8s ?? null,
    );
  }
  return new Uint8Array(await response.arrayBuffer());
}

export function publicSource(id: string): DecryptSource {
  return {
    params: () => call(routes.decryptParams, { params: { id } }),
    open: (auth) => postForBytes(routeUrl(routes.decrypt), { id, auth }),
  };
}

export function mailboxSource(folderId: number, uid: number): DecryptSource {
  const ref = { folder_id: folderId, uid };
  return {
    params: () => call(routes.decryptMessage, { body: ref }),
    open: (auth) => postForBytes(routeUrl(routes.decryptMessage), { ...ref, auth }),
  };
}
