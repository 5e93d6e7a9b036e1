import { useId, useState, type FormEvent } from 'react';
import { Plus } from 'lucide-react';
import { validateAliasName, type DomainEmail } from '@mailroom/protocol';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { LocalPartField, useLocalPart } from '../../ui/local-part-field';
import { raiseSuccess } from '../../ui/notices-store';
import { Select } from '../../ui/select';
import page from '../../ui/settings-page.module.css';
import { EmailItem } from './domain-emails';
import { useAllDomainEmails, useCreateDomainEmail, usePublicDomains } from './queries';
import { SettingsList, SettingsState } from '../../ui/settings-list';
import { FormActions } from '../../ui/form-parts';

/**
 * "Addresses on our domains", under the list of own domains: an address taken on one of the service's public domains
 * (GET user/domains/public), paid through the wallet — taken unpaid with its invoice, then 'I have already paid' —
 * and active once paid. The member's addresses there, from the one read of all their domain addresses, each with its
 * status, invoice, password access, delegation and removal (the rows of an own domain's addresses screen).
 */
export function PublicAddresses() {
  const { t } = useTranslation();
  const id = useId();
  const domains = usePublicDomains();
  const emails = useAllDomainEmails();
  const publicDomains = domains.data ?? [];
  const byId = new Map(publicDomains.map((domain) => [domain.id, domain]));
  const mine = (emails.data ?? []).filter((email) => byId.has(email.domain_id));
  // No public domain and nothing taken on one: nothing to offer.
  if (domains.isPending || (publicDomains.length === 0 && mine.length === 0)) return null;
  return (
    <section className={page.group} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className={page.groupTitle}>
        {t('domains.public.title')}
      </h3>
      <p className={page.hint}>{t('domains.public.intro')}</p>
      {publicDomains.length > 0 ? <TakeAddress domains={publicDomains} /> : null}
      {emails.isError && !emails.data ? (
        <SettingsState role="alert">
          <p>{t('domains.public.loadFailed')}</p>
          <Button onClick={() => void emails.refetch()}>{t('domains.retry')}</Button>
        </SettingsState>
      ) : mine.length > 0 ? (
        <SettingsList aria-label={t('domains.public.listLabel')}>
          {mine.map((email) => (
            <EmailItem key={email.id} email={email} domain={byId.get(email.domain_id)!} ownDomain={false} />
          ))}
        </SettingsList>
      ) : emails.data ? (
        <p className={page.muted}>{t('domains.public.empty')}</p>
      ) : null}
    </section>
  );
}

/** The local part typed, the domain chosen: the address is held unpaid with an invoice to pay in the wallet. */
function TakeAddress({ domains }: { domains: { id: number; name: string }[] }) {
  const { t } = useTranslation();
  const create = useCreateDomainEmail();
  const [domainId, setDomainId] = useState(domains[0]!.id);
  // The alias rules as typed, the stop list too: the service's own domains keep their role names.
  const local = useLocalPart(validateAliasName, useErrorText(create.error), create.reset);
  const domain = domains.find((d) => d.id === domainId) ?? domains[0]!;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!local.attempt()) return;
    create.mutate(
      { domainId: domain.id, name: local.name, catchAll: false },
      {
        onSuccess: (email: DomainEmail) => {
          raiseSuccess(t('domains.public.taken', { email: email.email }));
          local.clear();
        },
      },
    );
  }

  return (
    <form
      className={page.form}
      onSubmit={submit}
      noValidate
      aria-busy={create.isPending}
      aria-label={t('domains.public.take')}
    >
      <LocalPartField
        label={t('domains.public.name')}
        {...local.field}
        domain={domains.length > 1 ? '' : domain.name}
      >
        {domains.length > 1 ? (
          <Select
            label={t('domains.public.domain')}
            value={String(domain.id)}
            options={domains.map((d) => ({ value: String(d.id), label: d.name }))}
            onChange={(value) => {
              setDomainId(Number(value));
              create.reset();
            }}
          />
        ) : null}
      </LocalPartField>
      <span className={page.fieldHint}>{t('domains.public.paidHint')}</span>
      <FormActions>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          <Plus aria-hidden />
          {t('domains.public.take')}
        </Button>
      </FormActions>
    </form>
  );
}
