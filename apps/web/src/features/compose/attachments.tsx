import { useCallback, useEffect, useRef, useState } from 'react';
import clsx from 'clsx';
import { CircleAlert, File, X } from 'lucide-react';
import { ATTACHMENTS_TOTAL_LIMIT_MB, formatFileSize, type UploadedAttachment } from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { translateErrorCode, useTranslation } from '../../i18n';
import { useNotices } from '../../ui/notices-store';
import { fitsAttachmentLimit } from './compose-request';
import { createLimiter, uploadAttachment, UPLOADS_IN_PARALLEL } from './upload';
import styles from './compose.module.css';

export interface ComposeAttachment {
  key: string;
  name: string;
  size: number;
  status: 'uploading' | 'done' | 'failed';
  /** Bytes sent so far, while uploading. */
  loaded: number;
  /** The upload's id once on the server; none for a file kept in the browser only (added while encrypting). */
  id?: number;
  error?: string;
  /** The file as the user chose it, kept so an encrypted message can take its bytes without another upload. */
  file?: File;
  /** Where a copied attachment (a forward's, a draft's) can be read back, having no file in the browser. */
  readBack?: string;
}

/** max_limit_reached with the limit in MB (SPEC §8 'Max limit reached: {limit}Mb'). */
export function limitText(): string {
  return (
    translateErrorCode('max_limit_reached', { limit: ATTACHMENTS_TOTAL_LIMIT_MB }) ??
    `Max limit reached: ${ATTACHMENTS_TOTAL_LIMIT_MB}Mb`
  );
}

/**
 * SPEC §8 for upload errors: shown on the attachment, the server's message when there is one, else
 * internal_error; a 413 without a catalogue code is 'Request Entity Too Large'.
 */
export function uploadErrorText(error: unknown): string {
  const internal = translateErrorCode('internal_error') ?? 'Internal error';
  if (!(error instanceof ApiError)) return internal;
  if (error.code === 'max_limit_reached') return limitText();
  if (error.status === 500 || error.status === 0) return internal;
  if (error.code) return translateErrorCode(error.code) ?? error.message;
  if (error.status === 413) return 'Request Entity Too Large';
  return error.message || internal;
}

let nextKey = 1;

/** Compose attachments: uploads with progress and cancel, at most four at a time, within the 50 MB total. */
export function useAttachments() {
  const [items, setItems] = useState<ComposeAttachment[]>([]);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const controllers = useRef(new Map<string, AbortController>());
  const [limiter] = useState(() => createLimiter(UPLOADS_IN_PARALLEL));

  const update = (key: string, change: Partial<ComposeAttachment>) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const upload = useCallback(
    (key: string, file: File) => {
      const controller = new AbortController();
      controllers.current.set(key, controller);
      limiter(() => uploadAttachment(file, (loaded) => update(key, { loaded }), controller.signal))
        .then(
          (uploaded) =>
            update(key, { status: 'done', id: uploaded.id, name: uploaded.name, loaded: file.size }),
          (error: unknown) => {
            if (controller.signal.aborted) return;
            update(key, { status: 'failed', error: uploadErrorText(error) });
          },
        )
        .finally(() => controllers.current.delete(key));
    },
    [limiter],
  );

  // Closing the window stops what is still uploading.
  useEffect(() => {
    const running = controllers.current;
    return () => running.forEach((controller) => controller.abort());
  }, []);

  const addFiles = useCallback(
    (files: readonly File[], options: { local?: boolean } = {}) => {
      const sizes = itemsRef.current.filter((item) => item.status !== 'failed').map((item) => item.size);
      const added: ComposeAttachment[] = [];
      for (const file of files) {
        if (!fitsAttachmentLimit(sizes, file.size)) {
          useNotices.getState().push('error', limitText());
          break;
        }
        sizes.push(file.size);
        const key = `upload-${nextKey++}`;
        if (options.local) {
          added.push({ key, name: file.name, size: file.size, status: 'done', loaded: file.size, file });
          continue;
        }
        added.push({ key, name: file.name, size: file.size, status: 'uploading', loaded: 0, file });
      }
      if (added.length === 0) return;
      setItems((current) => [...current, ...added]);
      for (const item of added) if (item.status === 'uploading') upload(item.key, item.file!);
    },
    [upload],
  );

  /** Attachments already on the server (copied from a message); `readBack[i]` is where the i-th is read back. */
  const addUploaded = useCallback(
    (uploaded: readonly UploadedAttachment[], readBack: readonly (string | undefined)[] = []) => {
      setItems((current) => [
        ...current,
        ...uploaded.map((attachment, index) => ({
          key: `copy-${nextKey++}`,
          name: attachment.name,
          size: attachment.size,
          status: 'done' as const,
          loaded: attachment.size,
          id: attachment.id,
          ...(readBack[index] ? { readBack: readBack[index] } : {}),
        })),
      ]);
    },
    [],
  );

  /** Encryption switched off: files kept in the browser for it go up now, as any attachment does. */
  const uploadKept = useCallback(() => {
    const kept = itemsRef.current.filter(
      (item) => item.id === undefined && item.file && item.status === 'done',
    );
    if (kept.length === 0) return;
    const keys = new Set(kept.map((item) => item.key));
    setItems((current) =>
      current.map((item) => (keys.has(item.key) ? { ...item, status: 'uploading', loaded: 0 } : item)),
    );
    for (const item of kept) upload(item.key, item.file!);
  }, [upload]);

  const remove = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
    controllers.current.delete(key);
    setItems((current) => current.filter((item) => item.key !== key));
  }, []);

  return { items, addFiles, addUploaded, uploadKept, remove };
}

export function AttachmentList({
  items,
  onRemove,
}: {
  items: readonly ComposeAttachment[];
  onRemove(key: string): void;
}) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return null;
  return (
    <ul className={styles.attachments} aria-label={t('compose.attachments')}>
      {items.map((item) => {
        const percent = item.size > 0 ? Math.min(100, Math.round((item.loaded / item.size) * 100)) : 100;
        return (
          <li
            key={item.key}
            className={clsx(styles.attachment, item.status === 'failed' && styles.attachmentFailed)}
            data-status={item.status}
          >
            {item.status === 'failed' ? (
              <CircleAlert className={styles.attachmentIcon} aria-hidden />
            ) : (
              <File className={styles.attachmentIcon} aria-hidden />
            )}
            <div className={styles.attachmentBody}>
              <div className={styles.attachmentLine}>
                <span className={styles.attachmentName} title={item.name}>
                  {item.name}
                </span>
                <span className={styles.attachmentSize}>{formatFileSize(item.size, i18n.language)}</span>
              </div>
              {item.status === 'uploading' ? (
                <progress
                  className={styles.progress}
                  max={100}
                  value={percent}
                  aria-label={t('compose.uploading', { name: item.name })}
                />
              ) : null}
              {item.status === 'failed' ? (
                <span className={styles.attachmentError} role="alert">
                  {item.error}
                </span>
              ) : null}
            </div>
            <button
              type="button"
              className={styles.attachmentRemove}
              aria-label={
                item.status === 'uploading'
                  ? t('compose.cancelUpload', { name: item.name })
                  : t('compose.removeAttachment', { name: item.name })
              }
              title={item.status === 'uploading' ? t('compose.cancelUploadShort') : t('compose.remove')}
              onClick={() => onRemove(item.key)}
            >
              <X aria-hidden />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
