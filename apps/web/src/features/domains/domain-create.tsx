import { useState, type FormEvent } from 'react';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import { SettingsPage } from '../../ui/settings-editor-header';
import page from '../../ui/settings-page.module.css';
import { confirmDomainPath, domainsPath } from './paths';
import { useCreateDomain } from './queries';
import { PassportNeeded, usePassportTooLow } from '../account';
import { Field } from '../../ui/field';
import { FormActions } from '../../ui/form-parts';
import { VerbatimInput } from '../../ui/preset-input';

/**
 * settings/domains/list/create: a domain name (an IDN typed in Unicode is fine). The server's refusal (invalid_domain,
 * domain_hosted, duplicate_domains, passport_level_required, error_domain_status_paying) shows beside the name. A free
 * domain goes on to its verification; a paid one back to the list, where its invoice waits.
 */
/**
 * The domain name in what was typed or pasted: a web address (`http://AnnLee.example/about`) gives its host, and
 * a trailing path, port or dot goes; the server checks what is left.
 */
export function domainOfTyped(text: string): string {
  let typed = text.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(typed)) {
    try {
      typed = new URL(typed).hostname;
    } catch {
      // not a URL after all: left to the server to refuse
    }
  }
  return typed
    .replace(/^\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d*$/, '')
    .replace(/\.$/, '');
}

export function DomainCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateDomain();
  const [name, setName] = useState('');
  const errorText = useErrorText(create.error);
  const passportTooLow = usePassportTooLow();

  function submit(event: FormEvent) {
    event.preventDefault();
    const typed = domainOfTyped(name);
    if (!typed) return;
    create.mutate(typed, {
      onSuccess: (domain) => {
        if (domain.status === 'unpaid') {
          raiseSuccess(t('domains.invoiceIssued', { name: domain.display_name }));
          navigate(domainsPath);
        } else {
          raiseSuccess(t('domains.created', { name: domain.display_name }));
          navigate(confirmDomainPath(domain.id));
        }
      },
    });
  }

  return (
    <SettingsPage title={t('domains.createTitle')} back={{ to: domainsPath, label: t('domains.backToList') }}>
      <form className={page.form} onSubmit={submit} noValidate aria-busy={create.isPending}>
        {passportTooLow ? <PassportNeeded what="domain" /> : null}
        <Field label={t('domains.name')} error={errorText} hint={t('domains.nameHint')} announce>
          <VerbatimInput
            value={name}
            maxLength={253}
            inputMode="url"
            placeholder="example.com"
            onChange={(value) => {
              setName(value);
              create.reset();
            }}
          />
        </Field>
        <p className={page.hint}>{t('domains.paidHint')}</p>
        <FormActions>
          <Link to={domainsPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button
            type="submit"
            variant="primary"
            disabled={create.isPending || passportTooLow || !name.trim()}
          >
            {t('domains.add')}
          </Button>
        </FormActions>
      </form>
    </SettingsPage>
  );
}
