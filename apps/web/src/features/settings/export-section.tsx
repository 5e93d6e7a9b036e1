import { useId, useState } from 'react';
import type { ExportFormat } from '@mailroom/protocol';
import { FileArchive, FileText } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { buttonClass } from '../../ui/button';
import { NativeSelect } from '../../ui/select';
import { Preloader } from '../../ui/preloader';
import page from '../../ui/settings-page.module.css';
import { SettingsPage } from '../../ui/settings-editor-header';
import { exportUrl, type ExportSubject } from '../../api/downloads';
import { flattenFolders, folderLabel, useFolders } from '../folders';
import { Group } from './security-parts';
import styles from './settings-sections.module.css';

/** settings/export (issue 33): the whole mailbox or one folder, as one mbox file or a zip of .eml files in folders. */
export default function ExportSection() {
  const { t } = useTranslation();
  const folders = useFolders().data;
  const all = folders ? flattenFolders(folders) : [];
  const [folderId, setFolderId] = useState<number | null>(null);
  const chosen = folderId ?? all[0]?.id ?? null;
  const id = useId();
  return (
    <SettingsPage title={t('exportSettings.title')}>
      <p className={page.hint}>{t('exportSettings.intro')}</p>
      <Group title={t('exportSettings.mailbox')}>
        <p className={page.hint}>{t('exportSettings.mailboxHint')}</p>
        <Downloads subject={{ kind: 'mailbox' }} />
      </Group>
      <Group title={t('exportSettings.folder')}>
        {folders ? (
          <>
            <div className={page.setting}>
              <label className={page.settingText} htmlFor={id}>
                <span>{t('exportSettings.chooseFolder')}</span>
              </label>
              <NativeSelect
                id={id}
                value={String(chosen ?? '')}
                options={all.map((folder) => ({ value: String(folder.id), label: folderLabel(folder, t) }))}
                onChange={(value) => setFolderId(Number(value))}
              />
            </div>
            {chosen === null ? null : <Downloads subject={{ kind: 'folder', id: chosen }} />}
          </>
        ) : (
          <Preloader />
        )}
      </Group>
    </SettingsPage>
  );
}

/** The two downloads of a subject: links the browser saves (the server streams the file as it writes it). */
function Downloads({ subject }: { subject: ExportSubject }) {
  const { t } = useTranslation();
  const link = (format: ExportFormat, label: string, Icon: typeof FileText) => (
    <a href={exportUrl(subject, format)} download className={buttonClass('secondary')}>
      <Icon aria-hidden />
      {label}
    </a>
  );
  return (
    <div className={styles.exportActions}>
      {link('mbox', t('mail.exportMbox'), FileText)}
      {link('zip', t('mail.exportZip'), FileArchive)}
    </div>
  );
}
