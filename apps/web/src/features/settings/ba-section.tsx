import { Landmark } from 'lucide-react';
import type { BankAccount } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import page from '../../ui/settings-page.module.css';
import { AccessGrants } from './access-grants';
import { Group, OwnerOnly, SectionLoading } from './security-parts';
import { useBaList, useSecurity } from './security-queries';
import { SettingsList, SettingsState } from '../../ui/settings-list';
import { SettingsPage } from '../../ui/settings-editor-header';

/**
 * settings/ba (SPEC §2): the member's bank accounts as the wallet reports them (numbers masked by the server), who
 * may act for them (BA-impersonation), and the bank accounts of members this member acts for.
 */
export default function BaSection() {
  return (
    <OwnerOnly>
      <BankAccountsPage />
    </OwnerOnly>
  );
}

function BankAccountsPage() {
  const { t } = useTranslation();
  const list = useBaList();
  const security = useSecurity();
  return (
    <SettingsPage title={t('ba.title')}>
      <Group title={t('ba.own')}>
        {list.data ? (
          <BankAccounts accounts={list.data.bank_accounts} label={t('ba.own')} />
        ) : (
          <SectionLoading failed={list.isError} onRetry={() => void list.refetch()} />
        )}
      </Group>
      <Group title={t('security.baImpersonation.title')}>
        <p className={page.hint}>{t('security.baImpersonation.intro')}</p>
        {security.data ? (
          <AccessGrants kind="ba_impersonation" grants={security.data.ba_impersonation} />
        ) : (
          <SectionLoading failed={security.isError} onRetry={() => void security.refetch()} />
        )}
      </Group>
      <Group title={t('ba.actingFor')}>
        <p className={page.hint}>{t('ba.actingForIntro')}</p>
        {list.data ? (
          list.data.acting_for.length === 0 ? (
            <p className={page.muted}>{t('ba.actingForEmpty')}</p>
          ) : (
            list.data.acting_for.map((member) => {
              const label = t('ba.ofMember', {
                name: member.name || member.member_id,
                memberId: member.member_id,
              });
              return (
                <div key={member.member_id} className={page.form}>
                  <strong>{label}</strong>
                  <BankAccounts accounts={member.bank_accounts} label={label} />
                </div>
              );
            })
          )
        ) : null}
      </Group>
    </SettingsPage>
  );
}

function BankAccounts({ accounts, label }: { accounts: readonly BankAccount[]; label: string }) {
  const { t } = useTranslation();
  if (accounts.length === 0)
    return (
      <SettingsState>
        <Landmark aria-hidden />
        <p>{t('ba.empty')}</p>
      </SettingsState>
    );
  return (
    <SettingsList aria-label={label}>
      {accounts.map((account) => (
        <li key={account.id} className={page.item} aria-label={account.name}>
          <span className={page.itemMain}>
            <span className={page.itemName}>{account.name}</span>
            <span className={page.itemSub}>{account.number}</span>
          </span>
          <span className={page.badge}>{account.currency}</span>
        </li>
      ))}
    </SettingsList>
  );
}
