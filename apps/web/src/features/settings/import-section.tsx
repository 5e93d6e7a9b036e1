import { useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { formatFileSize, type MailImport } from '@mailroom/protocol';
import { FileUp, Upload } from 'lucide-react';
import i18n, { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-parts';
import { Preloader } from '../../ui/preloader';
import { Switch } from '../../ui/switch';
import page from '../../ui/settings-page.module.css';
import { SettingsPage } from '../../ui/settings-editor-header';
import { refusal, useErrorText } from '../../api/use-error-text';
import { Group } from './security-parts';
import { importQueries, useStartUploadImport } from './import-queries';
import {
  cancelImportUpload,
  forgetImportUpload,
  uploadImportFile,
  type UploadProgress,
} from './import-upload';
import styles from './import-section.module.css';

const ACCEPT =
  '.mbox,.mbx,.eml,.zip,.tar.gz,.tgz,application/mbox,message/rfc822,application/zip,application/gzip';

/**
 * settings/import (issue 33): a file of mail from elsewhere (an mbox such as a Google Takeout, an .eml, a .zip or
 * .tar.gz of .eml files in folders) sent in parts — it goes on after a dropped connection, and after a reload when
 * the same file is chosen again — then imported as a job whose progress the list shows live.
 */
export default function ImportSection() {
  const { t } = useTranslation();
  return (
    <SettingsPage title={t('importSettings.title')}>
      <p className={page.hint}>{t('importSettings.intro')}</p>
      <Group title={t('importSettings.upload')}>
        <UploadForm />
      </Group>
      <Group title={t('importSettings.imports')}>
        <ImportList />
      </Group>
    </SettingsPage>
  );
}

function UploadForm() {
  const { t } = useTranslation();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [filters, setFilters] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const running = useRef<{ controller: AbortController; id?: number } | null>(null);
  const start = useStartUploadImport();
  const errorText = useErrorText(error ?? start.error);
  // Leaving the page stops the upload; the same file chosen later goes on from where it stopped.
  useEffect(() => () => running.current?.controller.abort(), []);

  async function upload() {
    if (!file || running.current) return;
    const controller = new AbortController();
    running.current = { controller };
    setError(null);
    start.reset();
    try {
      const id = await uploadImportFile(
        file,
        (now) => {
          if (running.current) running.current.id = now.id;
          setProgress(now);
        },
        controller.signal,
      );
      await start.mutateAsync({ uploadId: id, filters });
      forgetImportUpload(id);
      setFile(null);
    } catch (err) {
      if (!controller.signal.aborted) setError(err);
    } finally {
      running.current = null;
      setProgress(null);
    }
  }

  async function cancel() {
    const current = running.current;
    if (!current) return;
    current.controller.abort();
    running.current = null;
    setProgress(null);
    // Given up on the server too: otherwise the same file chosen again would go on with it.
    if (current.id !== undefined) await cancelImportUpload(current.id);
  }

  const percent = progress ? Math.floor((progress.sent / progress.size) * 100) : 0;
  return (
    <div className={styles.form}>
      <div className={styles.fileRow}>
        <input
          id={inputId}
          type="file"
          accept={ACCEPT}
          className={styles.fileInput}
          disabled={progress !== null}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setError(null);
          }}
        />
        <label htmlFor={inputId} className={clsx(styles.choose, progress && styles.disabled)}>
          <FileUp aria-hidden />
          {t('importSettings.chooseFile')}
        </label>
        <span className={styles.fileName} data-testid="import-file-name">
          {file ? `${file.name} · ${formatFileSize(file.size, i18n.language)}` : t('importSettings.noFile')}
        </span>
      </div>
      <Switch checked={filters} onChange={setFilters} disabled={progress !== null}>
        {t('importSettings.filters')}
      </Switch>
      <p className={page.fieldHint}>{t('importSettings.filtersHint')}</p>
      {progress ? (
        <div className={styles.progress}>
          <progress
            className={styles.bar}
            aria-label={t('importSettings.uploading')}
            max={progress.size}
            value={progress.sent}
          />
          <span className={page.itemSub} role="status">
            {t('importSettings.uploaded', {
              sent: formatFileSize(progress.sent, i18n.language),
              size: formatFileSize(progress.size, i18n.language),
              percent,
            })}
            {progress.waiting ? ` · ${t('importSettings.waiting')}` : ''}
          </span>
          <div>
            <Button onClick={() => void cancel()}>{t('importSettings.cancel')}</Button>
          </div>
        </div>
      ) : (
        <div>
          <Button variant="primary" disabled={!file || start.isPending} onClick={() => void upload()}>
            <Upload aria-hidden />
            {t('importSettings.start')}
          </Button>
        </div>
      )}
      <FormError>{errorText}</FormError>
    </div>
  );
}

const stateBadge: Record<MailImport['state'], string> = {
  queued: styles.queued!,
  running: styles.running!,
  done: styles.done!,
  failed: styles.failed!,
};

function ImportList() {
  const { t } = useTranslation();
  const { data } = useQuery(importQueries.list());
  if (!data) return <Preloader />;
  if (data.imports.length === 0) return <p className={page.hint}>{t('importSettings.none')}</p>;
  return (
    <ul className={styles.list} aria-label={t('importSettings.imports')}>
      {data.imports.map((item) => (
        <ImportItem key={item.id} item={item} />
      ))}
    </ul>
  );
}

function ImportItem({ item }: { item: MailImport }) {
  const { t } = useTranslation();
  const n = (value: number) => value.toLocaleString(i18n.language);
  const going = item.state === 'queued' || item.state === 'running';
  const errorText = useErrorText(item.error ? refusal(item.error) : null);
  const counts = [
    t('importSettings.stored', { count: item.stored, n: n(item.stored) }),
    item.already_here > 0 ? t('importSettings.alreadyHere', { n: n(item.already_here) }) : null,
    item.skipped > 0 ? t('importSettings.skipped', { n: n(item.skipped) }) : null,
    item.failed > 0 ? t('importSettings.failed', { n: n(item.failed) }) : null,
  ].filter(Boolean);
  return (
    <li className={styles.item} data-testid="mail-import">
      <div className={styles.itemHead}>
        <span className={page.itemName}>{item.file_name}</span>
        <span className={clsx(styles.state, stateBadge[item.state])}>
          {t(`importSettings.states.${item.state}`)}
        </span>
      </div>
      {going ? (
        <progress
          className={styles.bar}
          aria-label={t('importSettings.importing', { name: item.file_name })}
          max={Math.max(item.total, 1)}
          value={item.total > 0 ? item.done : undefined}
        />
      ) : null}
      <span className={page.itemSub}>
        {item.total > 0 ? `${t('importSettings.done', { done: n(item.done), total: n(item.total) })} · ` : ''}
        {counts.join(' · ')}
      </span>
      {item.state === 'failed' && errorText ? <span className={styles.error}>{errorText}</span> : null}
      {item.report.length > 0 ? (
        <details className={styles.report}>
          <summary>{t('importSettings.report', { count: item.report.length })}</summary>
          <ul>
            {item.report.map((entry) => (
              <li key={`${entry.item}-${entry.where}`}>
                {t('importSettings.reportEntry', {
                  item: n(entry.item),
                  where: entry.where,
                  reason: t(`importSettings.reasons.${entry.reason}`),
                })}
                {entry.stored ? ` (${t('importSettings.storedAnyway')})` : ''}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
}
