import { FileArchive, FileText } from 'lucide-react';
import { useTranslation } from '../../i18n';
import type { MenuKit } from '../../ui/dropdown';
import menu from '../../ui/menu.module.css';
import { exportUrl, startDownload, type ExportSubject } from '../../api/downloads';

/** The two export items of a menu: one mbox file, or a zip of .eml files in folders. */
export default function ExportMenuItems({ Menu, subject }: { Menu: MenuKit; subject: ExportSubject }) {
  const { t } = useTranslation();
  return (
    <>
      <Menu.Item className={menu.item} onSelect={() => startDownload(exportUrl(subject, 'mbox'))}>
        <FileText aria-hidden />
        {t('mail.exportMbox')}
      </Menu.Item>
      <Menu.Item className={menu.item} onSelect={() => startDownload(exportUrl(subject, 'zip'))}>
        <FileArchive aria-hidden />
        {t('mail.exportZip')}
      </Menu.Item>
    </>
  );
}
