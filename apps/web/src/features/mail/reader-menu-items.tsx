import { Filter } from 'lucide-react';
import type { Mail } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { useNavigate } from '../../lib/router';
import type { MenuKit } from '../../ui/dropdown';
import menu from '../../ui/menu.module.css';
import { newFilterPath } from '../filters';

/** The reader's "more" menu: what does not earn a button of its own. Loads with the menu (DESIGN §5). */
export default function ReaderMenuItems({ Menu, message }: { Menu: MenuKit; message: Mail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const from = message.fields.from[0]?.email;
  return (
    <Menu.Item
      className={menu.item}
      onSelect={() => navigate(newFilterPath({ from, subject: message.subject.trim() }))}
    >
      <Filter aria-hidden />
      {t('mail.createFilter')}
    </Menu.Item>
  );
}
