import { type ReactNode } from 'react';
import { CloudOff } from 'lucide-react';
import { ApiError } from '../../api/client';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { SettingsPage } from '../../ui/settings-editor-header';
import { domainsPath } from './paths';
import { SettingsSkeleton, SettingsState } from '../../ui/settings-list';

/** A page of one domain (confirm, dkim, remove, emails): back to the list, its title, and its state while loading. */
export function DomainPage({
  title,
  query,
  children,
}: {
  title: string;
  query: { isPending: boolean; isError: boolean; error: unknown; refetch(): unknown; data?: unknown };
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const missing = query.error instanceof ApiError && query.error.code === 'entity_not_found';
  return (
    <SettingsPage title={title} back={{ to: domainsPath, label: t('domains.backToList') }}>
      {query.data !== undefined ? (
        children
      ) : query.isPending ? (
        <SettingsSkeleton rows={3} aria-busy="true" aria-label={t('domains.loading')} />
      ) : (
        <SettingsState role="alert">
          <CloudOff aria-hidden />
          <p>{missing ? t('domains.notFound') : t('domains.loadFailed')}</p>
          {missing ? null : <Button onClick={() => void query.refetch()}>{t('domains.retry')}</Button>}
        </SettingsState>
      )}
    </SettingsPage>
  );
}

/** The numeric id of a route parameter, or -1 (which the server answers entity_not_found). */
export const idOf = (id: string | undefined) => (id && /^\d{1,9}$/.test(id) ? Number(id) : -1);

/** What a page shows for an id that is not one of the account's domains (as the server answers another account's). */
export const notFound = new ApiError(404, 'entity_not_found', 'entity_not_found');
export const notFoundQuery = { isPending: false, isError: true, error: notFound, refetch: () => {} };
