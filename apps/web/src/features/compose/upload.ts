import type { UploadedAttachment } from '@mailroom/protocol';
import { ApiError, routeUrl, routes } from '../../api/client';

export const UPLOAD_PATH = routeUrl(routes.uploadAttachment);
/** SPEC §7: up to 4 uploads at once; the rest wait their turn. */
export const UPLOADS_IN_PARALLEL = 4;

function errorFrom(xhr: XMLHttpRequest): ApiError {
  try {
    const body = JSON.parse(xhr.responseText) as {
      error?: { message?: string; meta?: { code?: number; i8s?: string } };
    };
    if (body.error?.message) {
      return new ApiError(
        body.error.meta?.code ?? xhr.status,
        body.error.message,
        body.error.meta?.i8s ?? null,
      );
    }
  } catch {
    // A proxy's HTML page for 413 or 502: the status still says what happened.
  }
  return new ApiError(xhr.status, xhr.status === 413 ? 'Request Entity Too Large' : xhr.statusText);
}

/**
 * The upload answer's attachment, checked by hand: the zod schema would bring zod (~30 KB gzipped) into the
 * compose chunk for this one check.
 */
function uploadedAttachment(body: unknown): UploadedAttachment {
  const attachment = (body as { attachment?: Partial<UploadedAttachment> } | null)?.attachment;
  if (
    !attachment ||
    !Number.isInteger(attachment.id) ||
    typeof attachment.name !== 'string' ||
    !Number.isInteger(attachment.size)
  ) {
    throw new Error('Unexpected upload response');
  }
  return { id: attachment.id!, name: attachment.name, size: attachment.size! };
}

/**
 * One file per request (SPEC §5), over XMLHttpRequest because fetch reports no upload progress. Sends the same
 * CSRF header as the api client; an abort rejects with an AbortError, which the error display ignores.
 */
export function uploadAttachment(
  file: File,
  onProgress: (loaded: number, total: number) => void,
  signal: AbortSignal,
): Promise<UploadedAttachment> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('Upload canceled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', UPLOAD_PATH);
    xhr.setRequestHeader('X-Mailroom-Csrf', '1');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) =>
      onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(errorFrom(xhr));
        return;
      }
      try {
        resolve(uploadedAttachment(JSON.parse(xhr.responseText)));
      } catch {
        reject(new ApiError(xhr.status, 'Unexpected upload response'));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network error'));
    xhr.onabort = () => reject(new DOMException('Upload canceled', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** Runs at most `limit` tasks at a time, in the order they were queued. */
export function createLimiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    running -= 1;
    waiting.shift()?.();
  };
  return function run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        running += 1;
        task().then(resolve, reject).finally(next);
      };
      if (running < limit) start();
      else waiting.push(start);
    });
  };
}
