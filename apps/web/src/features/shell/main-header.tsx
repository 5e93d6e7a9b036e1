import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Menu } from 'lucide-react';
import { Button } from '../../ui/button';
import { useUi } from './ui-store';
import styles from './main-header.module.css';

/** The top bar of the content area; on mobile it carries the button that slides the sidebar in. */
export function MainHeader({ children, label }: { children: ReactNode; label?: string }) {
  const { t } = useTranslation();
  const setOpen = useUi((state) => state.setSidebarOpen);
  return (
    <div className={styles.header} role={label ? 'toolbar' : undefined} aria-label={label}>
      <Button
        variant="ghost"
        iconOnly
        className={styles.menu}
        aria-label={t('common.openMenu')}
        onClick={() => setOpen(true)}
      >
        <Menu aria-hidden />
      </Button>
      {children}
    </div>
  );
}
