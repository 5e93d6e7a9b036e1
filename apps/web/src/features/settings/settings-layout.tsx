import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import clsx from 'clsx';
import { ArrowLeft, Settings } from 'lucide-react';
import { MainHeader } from '../shell';
import { Link, NavLink, useLocation, useParams } from '../../lib/router';
import { ComingSoon } from '../../ui/coming-soon';
import { lazyChunk } from '../../ui/lazy-route';
import { loadFiltersSection } from '../filters';
import { loadFolderSettings, loadLabelSettings } from '../folders';
import { buttonClass } from '../../ui/button';
import { settingsSections, type SettingsAction, type SettingsSectionId } from './sections';
import { MainSection } from './main-section';
import { ProfilesSection } from './profiles-section';
import styles from './settings.module.css';

const FiltersSection = lazyChunk(loadFiltersSection);
const FolderSettings = lazyChunk(loadFolderSettings);
const LabelSettings = lazyChunk(loadLabelSettings);

/** The sections with create and edit/{id} children. */
const editable = (action: SettingsAction | undefined): action is 'create' | 'edit' | undefined =>
  action === undefined || action === 'create' || action === 'edit';

export default function SettingsLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const nav = useRef<HTMLElement>(null);
  // On a phone the sections are one scrolling row: keep the current one in view.
  useEffect(() => {
    nav.current
      ?.querySelector<HTMLElement>('[aria-current="page"]')
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);
  return (
    <>
      <MainHeader>
        <h1 className={styles.heading}>{t('settings.title')}</h1>
        <Link to="/mail" className={clsx(buttonClass('ghost'), styles.back)}>
          <ArrowLeft aria-hidden />
          {t('settings.backToMail')}
        </Link>
      </MainHeader>
      <div className={styles.body}>
        <nav ref={nav} className={styles.nav} aria-label={t('settings.nav')}>
          <ul>
            {settingsSections.map((section) => (
              <li key={section}>
                <NavLink
                  to={`/settings/${section}`}
                  className={styles.navLink}
                  activeClassName={styles.active}
                >
                  {t(`settings.sections.${section}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className={styles.scroll}>{children}</div>
      </div>
    </>
  );
}

export function SettingsSection({
  section,
  action,
}: {
  section: SettingsSectionId;
  action?: SettingsAction;
}) {
  const { t } = useTranslation();
  const { id, email } = useParams();
  if (section === 'main' && action === undefined) return <MainSection />;
  if (editable(action)) {
    if (section === 'profiles') return <ProfilesSection action={action} id={id} />;
    if (section === 'folders') return <FolderSettings action={action} id={id} />;
    if (section === 'labels') return <LabelSettings action={action} id={id} />;
    if (section === 'filters') return <FiltersSection action={action} id={id} />;
  }
  const name = t(`settings.sections.${section}`);
  const subject = id ?? email;
  const title = action ? `${name} · ${t(`settings.actions.${action}`)}${subject ? ` ${subject}` : ''}` : name;
  return <ComingSoon title={title} text={t('settings.soonText')} icon={Settings} />;
}
