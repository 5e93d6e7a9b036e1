import { useState } from 'react';
import type { Filter, FilterRun } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { Dialog, DialogSpinner } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { NativeSelect } from '../../ui/select';
import { findInbox, useFolders } from '../folders';
import { folderChoices } from './folder-choices';
import { isFinished, useApplyFilter, useFilterRun } from './queries';
import styles from './filters.module.css';

/**
 * "Apply to folder…": choose a folder, see what a dry run says the filter would do there, then run it for real; the
 * progress comes from the websocket's filterRun events.
 */
export function ApplyDialog({ filter, onClose }: { filter: Filter; onClose(): void }) {
  const { t } = useTranslation();
  const folders = useFolders();
  const apply = useApplyFilter();
  const inbox = findInbox(folders.data ?? []);
  const [folderId, setFolderId] = useState<number | null>(null);
  const [dryRunId, setDryRunId] = useState<number | null>(null);
  const [realRunId, setRealRunId] = useState<number | null>(null);
  const dryRun = useFilterRun(dryRunId);
  const realRun = useFilterRun(realRunId);
  const chosen = folderId ?? inbox?.id ?? null;
  const choices = folderChoices(folders.data ?? [], t);
  const folderName = choices.find((c) => c.id === chosen)?.label.trim() ?? '';

  const start = (dry: boolean) => {
    if (chosen === null) return;
    apply.mutate(
      { script: filter.rules, folder_id: chosen, dry_run: dry },
      { onSuccess: (run) => (dry ? setDryRunId(run.id) : setRealRunId(run.id)) },
    );
  };
  const running = (run: FilterRun | undefined) => run !== undefined && !isFinished(run);
  const busy = apply.isPending || running(dryRun.data) || running(realRun.data);
  const dryDone = dryRun.data?.state === 'done' ? dryRun.data : null;

  return (
    <Dialog
      onOpenChange={(open) => !open && onClose()}
      busy={busy}
      title={t('filters.apply.title', { name: filter.name })}
      description={t('filters.apply.text')}
      actions={
        <>
          <Button disabled={busy} onClick={onClose}>
            {realRun.data && isFinished(realRun.data) ? t('common.close') : t('common.cancel')}
          </Button>
          {realRunId === null ? (
            dryDone ? (
              <Button
                variant="primary"
                disabled={busy || dryDone.counts.matched === 0}
                onClick={() => start(false)}
              >
                {t('filters.apply.run')}
              </Button>
            ) : (
              <Button variant="primary" disabled={busy || chosen === null} onClick={() => start(true)}>
                {busy && <DialogSpinner />}
                {t('filters.apply.check')}
              </Button>
            )
          ) : null}
        </>
      }
    >
      <Field label={t('filters.apply.folder')} className={styles.applyField}>
        <NativeSelect
          value={chosen ?? ''}
          disabled={busy || realRunId !== null}
          options={choices.map((choice) => ({ value: choice.id, label: choice.label }))}
          onChange={(value) => {
            setFolderId(Number(value));
            setDryRunId(null);
          }}
        />
      </Field>
      <RunStatus run={realRun.data ?? dryRun.data} folder={folderName} />
    </Dialog>
  );
}

/** Where a run is: its progress, then what it found (dry) or did. */
function RunStatus({ run, folder }: { run: FilterRun | undefined; folder: string }) {
  const { t } = useTranslation();
  if (!run) return null;
  if (run.state === 'failed')
    return (
      <p className={styles.error} role="alert">
        {t('filters.apply.failed', { error: run.error ?? '' })}
      </p>
    );
  if (!isFinished(run))
    return (
      <div className={styles.progress} role="status">
        <progress max={Math.max(run.total, 1)} value={run.done} aria-label={t('filters.apply.progress')} />
        <span>{t('filters.apply.progressText', { done: run.done, total: run.total })}</span>
      </div>
    );
  const values = { ...run.counts, total: run.total, folder };
  return (
    <p className={styles.result} role="status">
      {run.dry_run
        ? run.counts.matched === 0
          ? t('filters.apply.nothing', values)
          : t('filters.apply.would', values)
        : t('filters.apply.did', values)}
      {run.counts.skipped > 0 && ` ${t('filters.apply.skipped', values)}`}
    </p>
  );
}
