import { formatFullDate } from '@mailroom/protocol';
import { useState } from 'react';
import { Inbox, UserRoundCheck } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import page from '../../ui/settings-page.module.css';
import { loadMailboxSwitch } from '../shell';
import { useDelegatedEmails } from './queries';
import { SettingsList, SettingsSkeleton, SettingsState } from '../../ui/settings-list';
import { SettingsPage } from '../../ui/settings-editor-header';

/**
 * settings/d_emails: the addresses other members delegated to this one — whose they are and since when — each opened
 * in the app (the session then holds the owner's mailbox to that one address; the bar on top leads back).
 */
export default function DelegatedSection() {
  const { t, i18n } = useTranslation();
  const delegated = useDelegatedEmails();
  const [opening, setOpening] = useState<string | null>(null);
  return (
    <SettingsPage title={t('delegated.title')}>
      <p className={page.hint}>{t('delegated.intro')}</p>
      {delegated.data ? (
        delegated.data.length > 0 ? (
          <SettingsList aria-label={t('delegated.listLabel')}>
            {delegated.data.map((entry) => (
              <li key={entry.email} className={page.item} aria-label={entry.email}>
                <span className={page.itemMain}>
                  <span className={page.itemName}>{entry.email}</span>
                  <span className={page.itemSub}>
                    {t('delegated.from', {
                      name: entry.owner.name || entry.owner.member_id,
                      memberId: entry.owner.member_id,
                      date: formatFullDate(entry.since, new Date(), i18n.language),
                    })}
                  </span>
                </span>
                <Button
                  variant="primary"
                  aria-label={t('delegated.openFor', { email: entry.email })}
                  disabled={opening !== null}
                  onClick={() => {
                    setOpening(entry.email);
                    void loadMailboxSwitch()
                      .then((m) => m.openDelegatedAddress(entry.email))
                      .finally(() => setOpening(null));
                  }}
                >
                  <Inbox aria-hidden />
                  {t('delegated.open')}
                </Button>
              </li>
            ))}
          </SettingsList>
        ) : (
          <SettingsState>
            <UserRoundCheck aria-hidden />
            <p>{t('delegated.empty')}</p>
          </SettingsState>
        )
      ) : delegated.isError ? (
        <SettingsState role="alert">
          <p>{t('domains.loadFailed')}</p>
          <Button onClick={() => void delegated.refetch()}>{t('domains.retry')}</Button>
        </SettingsState>
      ) : (
        <SettingsSkeleton rows={2} aria-hidden />
      )}
    </SettingsPage>
  );
}
