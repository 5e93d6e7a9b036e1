import { Download } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Dropdown } from '../../ui/dropdown';
import { IconButton } from '../../ui/icon-button';
import { lazyChunk } from '../../ui/lazy-route';
import { loadExportMenuItems } from '../folders';
import { useMailScreen } from './mail-context';
import { bulkRequest } from './queries';

const ExportMenuItems = lazyChunk(loadExportMenuItems);

/** Search results' export: every match (not the page on screen), as mbox or a zip of .eml. */
export default function SearchExport() {
  const { t } = useTranslation();
  const screen = useMailScreen();
  return (
    <Dropdown
      align="end"
      prefetch={loadExportMenuItems}
      trigger={
        <IconButton label={t('mail.exportResults')}>
          <Download aria-hidden />
        </IconButton>
      }
      content={(Menu) => (
        <ExportMenuItems Menu={Menu} subject={{ kind: 'search', query: bulkRequest(screen.source) }} />
      )}
    />
  );
}
