import { useRef, useState } from 'react';
import { CircleCheck, FileUp } from 'lucide-react';
import type { ContactImportResponse } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { Dialog, DialogClose, DialogSpinner } from '../../ui/dialog';
import dialog from '../../ui/dialog.module.css';
import { Field } from '../../ui/field';
import { NativeSelect } from '../../ui/select';
import { isImportFinished, useContactImport, useGroups, useImportContacts } from './queries';
import { useErrorText } from '../../api/use-error-text';
import styles from './contacts.module.css';

/** What the file picker offers: vCard (2.1, 3.0, 4.0) and CSV as Google and Outlook export them. */
const ACCEPT = '.vcf,.vcard,.csv,text/vcard,text/x-vcard,text/csv';

/**
 * Import from a file: pick a vCard or CSV file (and, if wanted, a group to put everyone in); the file goes to the
 * server as it is, which reads its kind and charset. The result says what was added, completed, already there,
 * which groups were made, and which entries were left out and why.
 */
export function ImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const groups = useGroups();
  const upload = useImportContacts();
  const [group, setGroup] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const errorText = useErrorText(upload.error);
  const job = useContactImport(upload.data?.id ?? null).data;
  const finished = job !== undefined && isImportFinished(job);
  const result = job?.state === 'done' ? job : undefined;
  const busy = upload.isPending || (job !== undefined && !finished);

  function start(chosen: File) {
    setFile(chosen);
    upload.mutate({ file: chosen, group: group ? Number(group) : undefined });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) upload.reset();
        onOpenChange(next);
      }}
      busy={busy}
      title={t('contacts.importTitle')}
      description={t('contacts.importText')}
      actions={<DialogClose disabled={busy}>{t('common.close')}</DialogClose>}
    >
      <div className={styles.importFields}>
        <Field label={t('contacts.importGroup')}>
          <NativeSelect
            value={group}
            disabled={busy}
            empty={t('contacts.importNoGroup')}
            options={(groups.data ?? []).map((option) => ({ value: option.id, label: option.name }))}
            onChange={setGroup}
          />
        </Field>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          className={styles.fileInput}
          tabIndex={-1}
          aria-hidden
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            event.target.value = '';
            if (chosen) start(chosen);
          }}
        />
        <Button
          variant={result ? 'secondary' : 'primary'}
          disabled={busy}
          onClick={() => input.current?.click()}
        >
          {busy ? <DialogSpinner /> : <FileUp aria-hidden />}
          {busy
            ? t('contacts.importing', { file: file?.name ?? '' })
            : result
              ? t('contacts.importAnother')
              : t('contacts.chooseFile')}
        </Button>
      </div>
      {busy && job ? (
        <p className={dialog.text} role="status">
          {job.total > 0
            ? t('contacts.importProgress', {
                done: job.done.toLocaleString(i18n.language),
                total: job.total.toLocaleString(i18n.language),
              })
            : t('contacts.importReading')}
        </p>
      ) : null}
      {errorText || job?.state === 'failed' ? (
        <p className={styles.fieldError} role="alert">
          {errorText ?? t('contacts.importFailed', { file: file?.name ?? '', error: job?.error ?? '' })}
        </p>
      ) : null}
      {result ? <ImportResult result={result} fileName={file?.name ?? ''} /> : null}
    </Dialog>
  );
}

function ImportResult({ result, fileName }: { result: ContactImportResponse; fileName: string }) {
  const { t } = useTranslation();
  const counts = [
    ['contacts.importAdded', result.added],
    ['contacts.importUpdated', result.updated],
    ['contacts.importUnchanged', result.unchanged],
    ['contacts.importGroupsAdded', result.groups_added],
    ['contacts.importSkipped', result.skipped_count],
    ...(result.over_limit ? ([['contacts.importOverLimit', result.over_limit]] as const) : []),
    ...(result.groups_over_limit
      ? ([['contacts.importGroupsOverLimit', result.groups_over_limit]] as const)
      : []),
  ] as const;
  return (
    <section className={styles.importResult} role="status" aria-label={t('contacts.importResult')}>
      <h3>
        <CircleCheck aria-hidden />
        {t('contacts.importDone', { file: fileName })}
      </h3>
      <dl>
        {counts.map(([key, count]) => (
          <div key={key}>
            <dt>{t(key)}</dt>
            <dd>{count}</dd>
          </div>
        ))}
      </dl>
      {result.over_limit > 0 ? (
        <p className={styles.fieldError}>{t('contacts.importOverLimitNote', { count: result.over_limit })}</p>
      ) : null}
      {result.skipped.length > 0 ? (
        <ul className={styles.skipped} aria-label={t('contacts.importSkipped')}>
          {result.skipped.slice(0, 50).map((entry) => (
            <li key={entry.entry}>
              {t('contacts.importSkippedEntry', { entry: entry.entry, reason: entry.reason })}
            </li>
          ))}
          {result.skipped_count > Math.min(result.skipped.length, 50) ? (
            <li>
              {t('contacts.importSkippedMore', {
                count: result.skipped_count - Math.min(result.skipped.length, 50),
              })}
            </li>
          ) : null}
        </ul>
      ) : null}
    </section>
  );
}
