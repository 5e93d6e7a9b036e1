import { useEffect, useMemo } from 'react';
import clsx from 'clsx';
import {
  Download,
  File,
  FileArchive,
  FileImage,
  FileMusic,
  FileSpreadsheet,
  FileText,
  FileType,
  FileVideoCamera,
  Paperclip,
} from 'lucide-react';
import {
  attachmentKind,
  formatFileSize,
  withoutInvisibleFormatting,
  type AttachmentKind,
} from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import styles from './attachment-list.module.css';

const kindIcons: Record<AttachmentKind, typeof File> = {
  pdf: FileType,
  doc: FileText,
  audio: FileMusic,
  xls: FileSpreadsheet,
  video: FileVideoCamera,
  archive: FileArchive,
  img: FileImage,
  other: File,
};

/** One file to download: from the server (a stored message) or from memory (a decrypted one). */
export interface AttachmentLink {
  key: string | number;
  name: string;
  /** Bytes. */
  size: number;
  href: string;
}

/** A message's attachments: an icon by kind (SPEC §3), the name, the size in base 1024, a download link each. */
export function AttachmentList({
  attachments,
  className,
}: {
  attachments: AttachmentLink[];
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <section className={clsx(styles.attachments, className)} aria-label={t('mail.attachments')}>
      <h2 className={styles.title}>
        <Paperclip aria-hidden />
        {t('mail.attachmentCount', { count: attachments.length })}
      </h2>
      <ul>
        {attachments.map((attachment) => {
          // A decrypted message's names come from its sender, never through the server: cleaned here too.
          const name = withoutInvisibleFormatting(attachment.name);
          const kind = attachmentKind(name);
          const Icon = kindIcons[kind];
          return (
            <li key={attachment.key}>
              <a
                className={styles.attachment}
                href={attachment.href}
                download={name}
                title={t('mail.download', { name })}
              >
                <Icon className={clsx(styles.kind, styles[`kind-${kind}`])} aria-hidden />
                <span className={styles.name}>{name}</span>
                <span className={styles.size}>{formatFileSize(attachment.size, i18n.language)}</span>
                <Download className={styles.download} aria-hidden />
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Object URLs for files held in memory, revoked when the files change or the screen goes. */
export function useBlobLinks(files: { name: string; bytes: Uint8Array }[]): AttachmentLink[] {
  const links = useMemo(
    () =>
      files.map((file, index) => ({
        key: index,
        name: file.name,
        size: file.bytes.length,
        // Always a download: with the sender's type (text/html, image/svg+xml) a blob: URL opened in a tab would
        // be a document of our origin.
        href: URL.createObjectURL(
          new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }),
        ),
      })),
    [files],
  );
  useEffect(() => () => links.forEach((link) => URL.revokeObjectURL(link.href)), [links]);
  return links;
}
