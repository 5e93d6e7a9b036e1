import { useQuery } from '@tanstack/react-query';
import { call, routes } from '../../api/client';
import { useTranslation } from '../../i18n';
import rows from '../../ui/address-rows.module.css';

/**
 * The member's passport level, as GET user/settings/security tells it (the same query, and cache, as the Security
 * screen's): forms that need a formal passport (an alias, a domain) say so before anything is typed.
 */
export function usePassportTooLow(): boolean {
  const security = useQuery({
    queryKey: ['security', 'settings'],
    queryFn: ({ signal }) => call(routes.security, { signal }),
  });
  return security.data?.passport_level === 'none';
}

/** Said at the top of a form that needs a passport of at least formal level, while the member's is lower. */
export function PassportNeeded({ what }: { what: 'alias' | 'domain' }) {
  const { t } = useTranslation();
  return (
    <p className={rows.answer} role="note">
      {t(`passportNeeded.${what}`)}
    </p>
  );
}
