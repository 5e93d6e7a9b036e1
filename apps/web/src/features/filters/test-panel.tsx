import { useState } from 'react';
import { FlaskConical } from 'lucide-react';
import type { FilterAction, FilterTestResponse } from '@mailroom/protocol';
import { useTranslation, type Translate } from '../../i18n';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { NativeSelect } from '../../ui/select';
import { raiseError } from '../../api/error-message';
import { findInbox, useFolders } from '../folders';
import { folderChoices } from './folder-choices';
import { testFilter, useTestMessages } from './queries';
import styles from './filters.module.css';

/** Flags as people read them: \Seen is "read", \Flagged "flagged", a keyword is a label. */
function flagsText(flags: readonly string[], t: Translate): string {
  return flags
    .map((flag) =>
      flag.toLowerCase() === '\\seen'
        ? t('filters.test.read')
        : flag.toLowerCase() === '\\flagged'
          ? t('filters.test.flagged')
          : flag,
    )
    .join(', ');
}

function actionText(action: FilterAction, t: Translate, folderName: (mailbox: string) => string): string {
  const flags = 'flags' in action && action.flags.length ? ` (${flagsText(action.flags, t)})` : '';
  switch (action.type) {
    case 'keep':
      return t('filters.test.keep') + flags;
    case 'fileinto':
      return (
        t(action.copy ? 'filters.test.copy' : 'filters.test.move', { folder: folderName(action.mailbox) }) +
        flags
      );
    case 'discard':
      return t('filters.test.discard');
    case 'redirect':
      return t(action.copy ? 'filters.test.forwardCopy' : 'filters.test.forward', {
        address: action.address,
      });
    case 'reject':
    case 'ereject':
      return t('filters.test.reject', { reason: action.reason });
    case 'vacation':
      return t('filters.test.reply', { subject: action.subject });
  }
}

/** "Test against a message": what the rules would do to one of the latest messages of a folder; nothing changes. */
export function TestPanel({ rules }: { rules: () => string | null }) {
  const { t } = useTranslation();
  const folders = useFolders();
  const [folderId, setFolderId] = useState<number | null>(null);
  const chosenFolder = folderId ?? findInbox(folders.data ?? [])?.id ?? null;
  const messages = useTestMessages(chosenFolder);
  const [uid, setUid] = useState<number | null>(null);
  const chosenUid = uid ?? messages.data?.[0]?.uid ?? null;
  const [result, setResult] = useState<FilterTestResponse | null>(null);
  const [busy, setBusy] = useState(false);
  const choices = folderChoices(folders.data ?? [], t);
  // The folder as the sidebar names it, when the script names one of the account's folders by its full name.
  const folderName = (mailbox: string) =>
    choices.find((c) => c.value.toLowerCase() === mailbox.toLowerCase())?.label.trim() ?? mailbox;

  async function run() {
    const script = rules();
    if (script === null || chosenFolder === null || chosenUid === null) return;
    setBusy(true);
    try {
      setResult(await testFilter({ script, folder_id: chosenFolder, uid: chosenUid }));
    } catch (error) {
      raiseError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className={styles.group}>
      <summary className={styles.groupTitle}>{t('filters.test.title')}</summary>
      <div className={styles.testRow}>
        <Field label={t('filters.apply.folder')}>
          <NativeSelect
            value={chosenFolder ?? ''}
            options={choices.map((choice) => ({ value: choice.id, label: choice.label }))}
            onChange={(value) => {
              setFolderId(Number(value));
              setUid(null);
              setResult(null);
            }}
          />
        </Field>
        <Field label={t('filters.test.message')} className={styles.grow}>
          <NativeSelect
            value={chosenUid ?? ''}
            disabled={!messages.data?.length}
            empty={messages.data?.length === 0 ? t('filters.test.noMessages') : undefined}
            options={(messages.data ?? []).map((message) => ({
              value: message.uid,
              label: `${message.fields.from[0]?.email ?? ''} — ${message.subject || t('filters.test.noSubject')}`,
            }))}
            onChange={(value) => {
              setUid(Number(value));
              setResult(null);
            }}
          />
        </Field>
        <Button disabled={busy || chosenUid === null} onClick={() => void run()}>
          <FlaskConical aria-hidden />
          {t('filters.test.run')}
        </Button>
      </div>
      {result ? (
        <div className={styles.result} role="status" aria-label={t('filters.test.result')}>
          {result.status === 'success' ? (
            <ul className={styles.testActions}>
              {result.actions.map((action, index) => (
                <li key={index}>{actionText(action, t, folderName)}</li>
              ))}
              {result.implicit_keep ? (
                <li>
                  {t('filters.test.keep')}
                  {result.implicit_keep.flags.length ? ` (${flagsText(result.implicit_keep.flags, t)})` : ''}
                </li>
              ) : null}
            </ul>
          ) : (
            <p className={styles.error}>
              {result.error
                ? `${t('filters.script.at', { line: result.error.line, column: result.error.column })} ${result.error.message}`
                : t('filters.test.failed')}
            </p>
          )}
        </div>
      ) : null}
    </details>
  );
}
