import type { ImportUpload, RouteResponse } from '@mailroom/protocol';
import { ApiError, call, NetworkError, request, routes, routeUrl } from '../../api/client';

/** How far an upload of an import file got: bytes the server has, and whether it waits for the network. */
export interface UploadProgress {
  /** The upload's id on the server. */
  id: number;
  sent: number;
  size: number;
  /** The last part did not go through (no connection, the server restarting): trying again after a pause. */
  waiting: boolean;
}

/** The uploads begun in this browser, by file, so that choosing the same file again goes on where it stopped. */
const SAVED_KEY = 'mailroom.importUploads';

interface SavedUpload {
  id: number;
  /** The file as the browser describes it: its name, size and last change. */
  file: string;
}

const fileKey = (file: File) => `${file.name}\n${file.size}\n${file.lastModified}`;

function savedUploads(): SavedUpload[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(SAVED_KEY) ?? '[]');
    return Array.isArray(value) ? (value as SavedUpload[]) : [];
  } catch {
    return [];
  }
}

function saveUploads(list: SavedUpload[]): void {
  try {
    localStorage.setItem(SAVED_KEY, JSON.stringify(list.slice(-5)));
  } catch {
    // Private mode or a full storage: the upload still works, it just cannot be resumed after a reload.
  }
}

function forget(id: number): void {
  saveUploads(savedUploads().filter((saved) => saved.id !== id));
}

/** Pauses between tries of a part that did not go through: quick at first, then every 15 s. */
const RETRY_PAUSES_MS = [1_000, 2_000, 5_000, 10_000, 15_000];

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        window.clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Worth trying again: no answer came, or the server (or a proxy before it) could not take it just now. */
const passing = (err: unknown) =>
  err instanceof NetworkError || (err instanceof ApiError && (err.status >= 500 || err.status === 408));

/**
 * The upload this browser began of `file`, if the server still has it (and no import took it); else a new one.
 * Refusals of a new one (too large, too many unfinished) are thrown as they come.
 */
async function resumeOrBegin(file: File, signal: AbortSignal): Promise<ImportUpload> {
  const key = fileKey(file);
  const saved = savedUploads().find((entry) => entry.file === key);
  if (saved) {
    try {
      return (await call(routes.importUpload, { params: { id: saved.id }, signal })).upload;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      forget(saved.id);
    }
  }
  const { upload } = await call(routes.createImportUpload, {
    body: { file_name: file.name, size: file.size },
    signal,
  });
  saveUploads([...savedUploads(), { id: upload.id, file: key }]);
  return upload;
}

/**
 * Sends `file` to the server in parts (the chunked upload of issue 33) and answers the upload's id once the server
 * has every byte. A part that does not go through is sent again after a pause, for as long as it takes (the
 * progress says it waits); a refused part (the server has a different idea of how far it got) goes on from what the
 * server says it has. The same file chosen again after a reload goes on where it stopped. `signal` stops it.
 */
export async function uploadImportFile(
  file: File,
  onProgress: (progress: UploadProgress) => void,
  signal: AbortSignal,
): Promise<number> {
  let upload = await resumeOrBegin(file, signal);
  let failures = 0;
  let refusals = 0;
  onProgress({ id: upload.id, sent: upload.received, size: file.size, waiting: false });
  while (upload.received < file.size) {
    signal.throwIfAborted();
    const part = Math.floor(upload.received / upload.part_bytes);
    const start = part * upload.part_bytes;
    try {
      // The part's bytes are the body (a Blob: sent as it is), not JSON: request, not call.
      upload = (
        await request<RouteResponse<'putImportUploadPart'>>(
          routeUrl(routes.putImportUploadPart, { params: { id: upload.id, part } }),
          {
            method: routes.putImportUploadPart.method,
            body: file.slice(start, Math.min(file.size, start + upload.part_bytes)),
            signal,
          },
        )
      ).upload;
      failures = 0;
      onProgress({ id: upload.id, sent: upload.received, size: file.size, waiting: false });
    } catch (err) {
      if (signal.aborted) throw err;
      const refused = err instanceof ApiError && err.code === 'invalid_request_params' && refusals++ < 3;
      if (!passing(err) && !refused) {
        if (err instanceof ApiError && err.status === 404) forget(upload.id);
        throw err;
      }
      onProgress({ id: upload.id, sent: upload.received, size: file.size, waiting: !refused });
      if (!refused) await pause(RETRY_PAUSES_MS[Math.min(failures++, RETRY_PAUSES_MS.length - 1)]!, signal);
      try {
        upload = (await call(routes.importUpload, { params: { id: upload.id }, signal })).upload;
      } catch (again) {
        if (signal.aborted || !passing(again)) throw again;
      }
    }
  }
  return upload.id;
}

/** The import began: the upload is the server's now (it removes it when the import ends). */
export function forgetImportUpload(id: number): void {
  forget(id);
}

/** Gives up an upload: the server removes its parts; a failure is of no matter (the server sweeps it in a day). */
export async function cancelImportUpload(id: number): Promise<void> {
  forget(id);
  await call(routes.deleteImportUpload, { params: { id } }).catch(() => undefined);
}
