import { Download, Filter } from 'lucide-react';
import type { Mail } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { useNavigate } from '../../lib/router';
import type { MenuKit } from '../../ui/dropdown';
import menu from '../../ui/menu.module.css';
import { newFilterPath } from '../filters';
import { messageSourceUrl, startDownload } from '../../api/downloads';

/** The reader's "more" menu: what does not earn a button of its own (a filter from it, Download .eml). Loads with the menu (DESIGN §5). */
export default function ReaderMenuItems({
  Menu,
  message,
  filters,
}: {
  Menu: MenuKit;
  message: Mail;
  /** Whether the user has filters (an alias-only user does not). */
  filters: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const from = message.fields.from[0]?.email;
  return (
    <>
      {filters ? (
        <Menu.Item
          className={menu.item}
          onSelect={() => navigate(newFilterPath({ from, subject: message.subject.trim() }))}
        >
          <Filter aria-hidden />
          {t('mail.createFilter')}
        </Menu.Item>
      ) : null}
      <Menu.Item
        className={menu.item}
        onSelect={() => startDownload(messageSourceUrl(message.folder_id, message.uid))}
      >
        <Download aria-hidden />
        {t('mail.downloadEml')}
      </Menu.Item>
    </>
  );
}
