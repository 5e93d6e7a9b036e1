import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Menu } from 'lucide-react';
import { IconButton } from '../../ui/icon-button';
import { useUi } from './ui-store';
import styles from './main-header.module.css';

/** The top bar of the content area; on mobile it carries the button that slides the sidebar in. */
export function MainHeader({ children, label }: { children: ReactNode; label?: string }) {
  const { t } = useTranslation();
  const setOpen = useUi((state) => state.setSidebarOpen);
  return (
    <div className={styles.header} role={label ? 'toolbar' : undefined} aria-label={label}>
      <IconButton label={t('common.openMenu')} className={styles.menu} onClick={() => setOpen(true)}>
        <Menu aria-hidden />
      </IconButton>
      {children}
    </div>
  );
}
