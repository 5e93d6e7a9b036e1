import type { CollectorState, ImapProvider, ImapServer } from '@mailroom/protocol';
import type { TextKey, Translate } from '../../i18n';

/** What a collector is doing, in words. */
export const stateText: Record<CollectorState, TextKey> = {
  importing: 'collectors.state.importing',
  idle: 'collectors.state.idle',
  retrying: 'collectors.state.retrying',
  stopped: 'collectors.state.stopped',
  disabled: 'collectors.state.disabled',
};

/** "imap.gmail.com, port 993, SSL/TLS". */
export function serverText(t: Translate, server: ImapServer): string {
  return t('collectors.server', {
    host: server.host,
    port: server.port,
    security: t(`collectors.security.${server.security}`),
  });
}

/** What a provider asks before a collector can sign in ("Gmail needs an app password"), or null. */
export function providerNote(t: Translate, provider: ImapProvider | null | undefined): string | null {
  if (!provider?.requires) return null;
  return provider.requires === 'app_password'
    ? t('collectors.appPassword', { name: provider.name })
    : t('collectors.oauth', { name: provider.name });
}
