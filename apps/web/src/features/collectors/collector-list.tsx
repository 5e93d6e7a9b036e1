import { useId, useState, type FormEvent } from 'react';
import clsx from 'clsx';
import { FolderDown, KeyRound, Trash2 } from 'lucide-react';
import { formatFullDate, type Collector } from '@mailroom/protocol';
import { raiseError } from '../../api/error-message';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { newCollectorPath } from './paths';
import { useCollectors, useDeleteCollector, useUpdateCollector } from './queries';
import { serverText, stateText } from './texts';
import { Switch } from '../../ui/switch';
import styles from './collectors.module.css';
import { SettingsLoadedList } from '../../ui/settings-list';
import { SettingsPage } from '../../ui/settings-editor-header';
import { FormActions, FormError } from '../../ui/form-parts';
import { Field } from '../../ui/field';

/** settings/collectors: each collector with its state in words, live progress, last check and error, and its actions. */
export function CollectorListPage() {
  const { t } = useTranslation();
  const collectors = useCollectors();
  return (
    <SettingsPage
      title={t('collectors.title')}
      create={{ to: newCollectorPath, label: t('collectors.create') }}
    >
      <p className={page.hint}>{t('collectors.intro')}</p>
      <SettingsLoadedList query={collectors} texts="collectors" icon={<FolderDown aria-hidden />}>
        {(collector) => <CollectorItem key={collector.id} collector={collector} />}
      </SettingsLoadedList>
    </SettingsPage>
  );
}

function CollectorItem({ collector }: { collector: Collector }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const update = useUpdateCollector();
  const [changing, setChanging] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const toggleError = useErrorText(update.error);
  const { email, progress, state } = collector;
  const date = (at: string) => formatFullDate(at, new Date(), i18n.language);
  const running = state === 'importing' || state === 'retrying';
  const counted = progress.folders_total > 0 || progress.messages_total > 0;

  function toggle(enabled: boolean) {
    update.mutate(
      { id: collector.id, change: { enabled } },
      {
        onSuccess: () => raiseSuccess(t(enabled ? 'collectors.turnedOn' : 'collectors.turnedOff', { email })),
      },
    );
  }

  return (
    <li className={styles.row} aria-labelledby={`${id}-email`}>
      <div className={styles.rowTop}>
        <span className={page.itemMain}>
          <span id={`${id}-email`} className={page.itemName}>
            {email}
          </span>
          <span className={page.itemSub}>
            {collector.login !== email ? `${collector.login} · ` : ''}
            {serverText(t, collector.server)}
          </span>
        </span>
        <span className={clsx(styles.state, styles[state])}>{t(stateText[state])}</span>
      </div>
      {counted || running ? (
        <div className={styles.progress}>
          {running ? (
            <progress
              className={styles.progressBar}
              aria-label={t('collectors.progressLabel', { email })}
              max={Math.max(progress.messages_total, 1)}
              value={progress.messages_total > 0 ? progress.messages_done : undefined}
            />
          ) : null}
          <span className={page.itemSub}>
            {t('collectors.progress', {
              foldersDone: progress.folders_done,
              foldersTotal: progress.folders_total,
              done: progress.messages_done.toLocaleString(i18n.language),
              total: progress.messages_total.toLocaleString(i18n.language),
            })}
            {progress.messages_skipped > 0
              ? ` · ${t('collectors.skipped', { count: progress.messages_skipped })}`
              : ''}
          </span>
        </div>
      ) : null}
      <p className={page.itemSub}>
        {collector.last_sync_at
          ? t('collectors.lastSync', { date: date(collector.last_sync_at) })
          : t('collectors.neverSynced')}
        {collector.next_sync_at
          ? ` · ${t('collectors.nextSync', { date: date(collector.next_sync_at) })}`
          : ''}
      </p>
      {collector.last_error ? (
        <LastError code={collector.last_error} at={collector.last_error_at} date={date} />
      ) : null}
      {state === 'stopped' ? <p className={page.hint}>{t('collectors.stoppedHint')}</p> : null}
      <FormError>{toggleError}</FormError>
      <div className={page.actions}>
        <Switch
          checked={collector.enabled}
          disabled={update.isPending}
          aria-label={t('collectors.enabledFor', { email })}
          onChange={toggle}
        >
          <span>{collector.enabled ? t('collectors.on') : t('collectors.off')}</span>
        </Switch>
        <span className={page.grow} />
        <Button
          variant="ghost"
          aria-expanded={changing}
          aria-label={t('collectors.changePasswordFor', { email })}
          onClick={() => setChanging((open) => !open)}
        >
          <KeyRound aria-hidden />
          {t('collectors.changePassword')}
        </Button>
        <Button
          variant="ghost"
          aria-label={t('collectors.deleteFor', { email })}
          onClick={() => setDeleting(true)}
        >
          <Trash2 aria-hidden />
          {t('collectors.delete')}
        </Button>
      </div>
      {changing ? <PasswordForm collector={collector} onDone={() => setChanging(false)} /> : null}
      <DeleteDialog collector={collector} open={deleting} onOpenChange={setDeleting} />
    </li>
  );
}

/** The last error as a catalogue code, in words (the catalogue is a chunk of its own: useErrorText loads it). */
function LastError({ code, at, date }: { code: string; at: string | null; date: (at: string) => string }) {
  const { t } = useTranslation();
  const text = useErrorText(refusal(code));
  if (!text) return null;
  return (
    <p className={styles.lastError} role="note">
      {at ? t('collectors.lastError', { date: date(at), error: text }) : text}
    </p>
  );
}

/** PUT {password}: the server signs in with it first; its refusal shows beside the field. */
function PasswordForm({ collector, onDone }: { collector: Collector; onDone(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdateCollector();
  const [password, setPassword] = useState('');
  const errorText = useErrorText(update.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) return;
    update.mutate(
      { id: collector.id, change: { password } },
      {
        onSuccess: () => {
          raiseSuccess(t('collectors.passwordSaved', { email: collector.email }));
          onDone();
        },
      },
    );
  }

  return (
    <form className={styles.panel} onSubmit={submit} noValidate aria-busy={update.isPending}>
      <Field label={t('collectors.newPassword', { email: collector.email })} error={errorText} announce>
        <input
          id={`${id}-password`}
          type="password"
          value={password}
          autoComplete="off"
          autoFocus
          onChange={(event) => {
            setPassword(event.target.value);
            update.reset();
          }}
        />
      </Field>
      <FormActions>
        <Button onClick={onDone}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" disabled={!password || update.isPending}>
          {t('collectors.savePassword')}
        </Button>
      </FormActions>
    </form>
  );
}

/** DELETE with the question of SPEC §2: keep the mail already collected (the default), or remove its folders. */
function DeleteDialog({
  collector,
  open,
  onOpenChange,
}: {
  collector: Collector;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const remove = useDeleteCollector();
  const [keepMail, setKeepMail] = useState(true);
  const { email } = collector;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setKeepMail(true);
      }}
      danger
      title={t('collectors.deleteTitle', { email })}
      text={
        <>
          {t('collectors.deleteText', { email })}
          <label className={styles.keep} htmlFor={`${id}-keep`}>
            <input
              id={`${id}-keep`}
              type="checkbox"
              checked={keepMail}
              onChange={(event) => setKeepMail(event.target.checked)}
            />
            {t('collectors.keepMail')}
          </label>
        </>
      }
      confirmLabel={t('collectors.delete')}
      onConfirm={async () => {
        await remove.mutateAsync({ id: collector.id, keepMail });
        raiseSuccess(t('collectors.deleted', { email }));
      }}
      onError={raiseError}
    />
  );
}
