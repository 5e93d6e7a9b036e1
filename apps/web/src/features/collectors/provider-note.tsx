import { ExternalLink, KeyRound } from 'lucide-react';
import type { ImapProvider } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { providerNote } from './texts';
import styles from './collectors.module.css';

/** "Gmail needs an app password — create one here", with the provider's own page (SPEC §2 collectors). */
export function ProviderNote({ provider }: { provider: ImapProvider | null | undefined }) {
  const { t } = useTranslation();
  const note = providerNote(t, provider);
  if (!note || !provider) return null;
  return (
    <p className={styles.note} role="note">
      <KeyRound aria-hidden />
      <span>
        {note}{' '}
        {provider.help_url ? (
          <a href={provider.help_url} target="_blank" rel="noopener noreferrer">
            {provider.requires === 'app_password'
              ? t('collectors.appPasswordLink')
              : t('collectors.oauthLink', { name: provider.name })}
            <ExternalLink aria-hidden />
          </a>
        ) : null}
      </span>
    </p>
  );
}
