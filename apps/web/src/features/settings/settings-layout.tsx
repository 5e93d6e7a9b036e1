import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import clsx from 'clsx';
import { ArrowLeft, Settings } from 'lucide-react';
import { MainHeader } from '../shell';
import { Link, NavLink, useLocation, useParams } from '../../lib/router';
import { ComingSoon } from '../../ui/coming-soon';
import { lazyChunk } from '../../ui/lazy-route';
import { loadAliasesSection } from '../aliases';
import { loadCollectorsSection } from '../collectors';
import { loadDelegatedSection, loadDomainsSection } from '../domains';
import { loadFiltersSection } from '../filters';
import { loadFolderSettings, loadLabelSettings } from '../folders';
import { buttonClass } from '../../ui/button';
import { useUser } from '../account';
import { settingsSections, type SettingsAction, type SettingsSectionId } from './sections';
import { MainSection } from './main-section';
import { ProfilesSection } from './profiles-section';
import styles from './settings.module.css';

const AliasesSection = lazyChunk(loadAliasesSection);
const CollectorsSection = lazyChunk(loadCollectorsSection);
const DomainsSection = lazyChunk(loadDomainsSection);
const DelegatedSection = lazyChunk(loadDelegatedSection);
const FiltersSection = lazyChunk(loadFiltersSection);
const FolderSettings = lazyChunk(loadFolderSettings);
const LabelSettings = lazyChunk(loadLabelSettings);
/**
 * The owner's own sections (security.ts): a session that opened another member's mailbox (impersonation) is refused
 * every call of them, so their entries are not shown to it. Here rather than in sections.ts, which the shell loads.
 * The addresses delegated to a member are that member's, not the mailbox's: not shown in someone else's either.
 */
const ownerOnlySections: ReadonlySet<SettingsSectionId> = new Set(['access', 'ba', 'd_emails', 'support']);

// The security screens, each a chunk of its own: most visits to settings open none of them.
const AccessSection = lazyChunk(() => import('./access-section'));
const BaSection = lazyChunk(() => import('./ba-section'));
const SupportSection = lazyChunk(() => import('./support-section'));
const SpamSection = lazyChunk(() => import('./spam-section'));
const ImportSection = lazyChunk(() => import('./import-section'));
const ExportSection = lazyChunk(() => import('./export-section'));

/** The sections with create and edit/{id} children. */
const editable = (action: SettingsAction | undefined): action is 'create' | 'edit' | undefined =>
  action === undefined || action === 'create' || action === 'edit';

export default function SettingsLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const nav = useRef<HTMLElement>(null);
  const impersonating = Boolean(useUser()?.info.impersonator);
  const sections = impersonating
    ? settingsSections.filter((section) => !ownerOnlySections.has(section))
    : settingsSections;
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
            {sections.map((section) => (
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
  if (action === undefined) {
    if (section === 'main') return <MainSection />;
    if (section === 'access') return <AccessSection />;
    if (section === 'ba') return <BaSection />;
    if (section === 'support') return <SupportSection />;
    if (section === 'spam') return <SpamSection />;
    if (section === 'import') return <ImportSection />;
    if (section === 'export') return <ExportSection />;
    if (section === 'd_emails') return <DelegatedSection />;
  }
  if (section === 'collectors' && (action === undefined || action === 'create' || action === 'confirm'))
    return <CollectorsSection action={action} />;
  if (section === 'domains' && action !== 'edit') return <DomainsSection action={action} id={id} />;
  if (editable(action)) {
    if (section === 'profiles') return <ProfilesSection action={action} id={id} />;
    if (section === 'folders') return <FolderSettings action={action} id={id} />;
    if (section === 'labels') return <LabelSettings action={action} id={id} />;
    if (section === 'filters') return <FiltersSection action={action} id={id} />;
    if (section === 'aliases' && action !== 'edit') return <AliasesSection action={action} />;
  }
  const name = t(`settings.sections.${section}`);
  const subject = id ?? email;
  const title = action ? `${name} · ${t(`settings.actions.${action}`)}${subject ? ` ${subject}` : ''}` : name;
  return <ComingSoon title={title} text={t('settings.soonText')} icon={Settings} />;
}
