import { useId, useState, type FormEvent } from 'react';
import { PAID_ALIAS_PRICE, validateAliasName } from '@mailroom/protocol';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import { Preloader } from '../../ui/preloader';
import { SettingsPage } from '../../ui/settings-editor-header';
import page from '../../ui/settings-page.module.css';
import { aliasesPath } from './paths';
import { useAliasRows, useCreateAlias } from './queries';
import { PassportNeeded, usePassportTooLow } from '../account';
import { LocalPartField, useLocalPart } from '../../ui/local-part-field';
import { FormActions } from '../../ui/form-parts';

/**
 * settings/aliases/create: a name checked as it is typed (validateAliasName, the server's own rules), then the free
 * alias or a paid one (its invoice then waits on the list). What the server answers wins over the check made here.
 */
export function AliasCreatePage() {
  const { t } = useTranslation();
  const { freeAvailable, domain, isPending } = useAliasRows();
  if (isPending) return <Preloader />;
  return <AliasCreateForm freeAvailable={freeAvailable} domain={domain} title={t('aliases.createTitle')} />;
}

function AliasCreateForm({
  freeAvailable,
  domain,
  title,
}: {
  freeAvailable: boolean;
  domain: string;
  title: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const create = useCreateAlias();
  const passportTooLow = usePassportTooLow();
  const [paidChosen, setPaid] = useState(!freeAvailable);
  // The free alias taken meanwhile (in another tab): only a paid one is left.
  const paid = paidChosen || !freeAvailable;
  // The server's refusal stays until the name or the kind changes (create.reset on each change).
  const local = useLocalPart(validateAliasName, useErrorText(create.error), create.reset);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!local.attempt()) return;
    create.mutate(
      { name: local.name, paid },
      {
        onSuccess: (alias) => {
          raiseSuccess(
            paid
              ? t('aliases.invoiceIssued', { email: alias.email })
              : t('aliases.created', { email: alias.email }),
          );
          navigate(aliasesPath);
        },
      },
    );
  }

  return (
    <SettingsPage title={title} back={{ to: aliasesPath, label: t('aliases.backToList') }}>
      <form className={page.form} onSubmit={submit} noValidate aria-busy={create.isPending}>
        {passportTooLow ? <PassportNeeded what="alias" /> : null}
        <LocalPartField
          label={t('aliases.name')}
          {...local.field}
          domain={domain || undefined}
          hint={t('aliases.nameHint')}
        />

        <fieldset className={page.group}>
          <legend className={page.groupTitle}>{t('aliases.kind')}</legend>
          <label className={page.check}>
            <input
              type="radio"
              name={`${id}-kind`}
              checked={!paid}
              disabled={!freeAvailable}
              onChange={() => {
                setPaid(false);
                create.reset();
              }}
            />
            {t('aliases.kindFree')}
          </label>
          <span className={page.fieldHint}>
            {freeAvailable ? t('aliases.kindFreeHint') : t('aliases.freeTaken')}
          </span>
          <label className={page.check}>
            <input
              type="radio"
              name={`${id}-kind`}
              checked={paid}
              onChange={() => {
                setPaid(true);
                create.reset();
              }}
            />
            {t('aliases.kindPaid')}
          </label>
          <span className={page.fieldHint}>{t('aliases.kindPaidHint', { price: PAID_ALIAS_PRICE })}</span>
        </fieldset>

        <FormActions>
          <Link to={aliasesPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" variant="primary" disabled={create.isPending || passportTooLow}>
            {paid ? t('aliases.buy') : t('aliases.createFree')}
          </Button>
        </FormActions>
      </form>
    </SettingsPage>
  );
}
