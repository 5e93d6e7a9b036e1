import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import clsx from 'clsx';
import { Download, FileUp, Plus } from 'lucide-react';
import { SUPPORTED_LANGUAGES, type Language } from '@mailroom/protocol';
import i18n, { setLanguage, useTranslation } from '../../i18n';
import { useNavigate, useSearchParams } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { MainHeader } from '../shell';
import { ContactListTab } from './contact-list';
import { contactsPath, readContactsQuery, type ContactsTab } from './contacts-model';
import { GroupsTab } from './group-tab';
import { ImportDialog } from './import-dialog';
import { exportUrl } from './queries';
import styles from './contacts.module.css';

const tabs: readonly ContactsTab[] = ['contacts', 'groups'];

/**
 * /contacts (SPEC §2: query tab, limit default 100, page, lang): the contacts and the groups tabs, import from a
 * vCard or CSV file, export as vCard. Alias-only sessions never get here (the route's guard, SPEC §2, §6).
 */
export default function ContactsPage() {
  const { t } = useTranslation();
  const search = useSearchParams();
  const navigate = useNavigate();
  const query = readContactsQuery(search);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const tabRefs = useRef<Partial<Record<ContactsTab, HTMLButtonElement | null>>>({});

  // SPEC §9: the lang query parameter overrides the language, on a link into the app as at its start; once per
  // address, so the language switcher still works on the page.
  const asked = search.get('lang')?.toLowerCase();
  const lang = SUPPORTED_LANGUAGES.find((language): language is Language => language === asked) ?? null;
  useEffect(() => {
    if (lang && lang !== i18n.language) void setLanguage(lang);
  }, [lang]);

  const open = (tab: ContactsTab) => navigate(contactsPath({ tab, limit: query.limit }));
  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = tabs[(tabs.indexOf(query.tab) + step + tabs.length) % tabs.length]!;
    open(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <>
      <MainHeader>
        <h1 className={styles.heading}>{t('contacts.title')}</h1>
        <span className={styles.grow} />
        <Button variant="ghost" onClick={() => setImporting(true)} title={t('contacts.import')}>
          <FileUp aria-hidden />
          <span className={styles.label}>{t('contacts.import')}</span>
        </Button>
        <a href={exportUrl()} download className={buttonClass('ghost')} title={t('contacts.exportAll')}>
          <Download aria-hidden />
          <span className={styles.label}>{t('contacts.export')}</span>
        </a>
        <Button
          variant="primary"
          onClick={() => setCreating(true)}
          title={t(query.tab === 'groups' ? 'contacts.createGroup' : 'contacts.create')}
        >
          <Plus aria-hidden />
          <span className={styles.label}>
            {t(query.tab === 'groups' ? 'contacts.createGroup' : 'contacts.create')}
          </span>
        </Button>
      </MainHeader>
      <div className={styles.tabs} role="tablist" aria-label={t('contacts.tabs')} onKeyDown={onTabKey}>
        {tabs.map((tab) => (
          <button
            key={tab}
            ref={(element) => {
              tabRefs.current[tab] = element;
            }}
            type="button"
            role="tab"
            id={`contacts-tab-${tab}`}
            aria-selected={query.tab === tab}
            aria-controls="contacts-panel"
            tabIndex={query.tab === tab ? 0 : -1}
            className={clsx(styles.tab, query.tab === tab && styles.activeTab)}
            onClick={() => open(tab)}
          >
            {t(tab === 'contacts' ? 'contacts.tabContacts' : 'contacts.tabGroups')}
          </button>
        ))}
      </div>
      <div
        className={styles.panel}
        role="tabpanel"
        id="contacts-panel"
        aria-labelledby={`contacts-tab-${query.tab}`}
      >
        {query.tab === 'groups' ? (
          <GroupsTab query={query} creating={creating} onCreatingChange={setCreating} />
        ) : (
          <ContactListTab query={query} creating={creating} onCreatingChange={setCreating} />
        )}
      </div>
      <ImportDialog open={importing} onOpenChange={setImporting} />
    </>
  );
}
