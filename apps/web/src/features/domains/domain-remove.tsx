import { useId, useState, type FormEvent } from 'react';
import { Trash2 } from 'lucide-react';
import { DOMAIN_DELETE_WORD } from '@mailroom/protocol';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { DomainPage, notFound } from './domain-page';
import { domainsPath } from './paths';
import { useDeleteDomain, useDomains } from './queries';
import { FormActions, FormError } from '../../ui/form-parts';
import { Field } from '../../ui/field';
import { VerbatimInput } from '../../ui/preset-input';

/**
 * settings/domains/remove/{id} (SPEC §5): the word delete typed to remove the domain (the button is enabled only
 * then); its addresses stop receiving mail, which is said first. Back to the list afterwards.
 */
export function DomainRemovePage({ id }: { id: number }) {
  const { t } = useTranslation();
  const formId = useId();
  const navigate = useNavigate();
  const domains = useDomains();
  const remove = useDeleteDomain();
  const [word, setWord] = useState('');
  const errorText = useErrorText(remove.error);
  const domain = domains.data?.find((d) => d.id === id);
  const query =
    domains.data && !domain ? { ...domains, data: undefined, isError: true, error: notFound } : domains;
  const typed = word.trim() === DOMAIN_DELETE_WORD;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!typed || !domain) return;
    remove.mutate(
      { id, confirm: word.trim() },
      {
        onSuccess: () => {
          raiseSuccess(t('domains.remove.done', { name: domain.display_name }));
          navigate(domainsPath);
        },
      },
    );
  }

  return (
    <DomainPage title={t('domains.remove.title', { name: domain?.display_name ?? '' })} query={query}>
      {domain ? (
        <form className={page.form} onSubmit={submit} noValidate aria-busy={remove.isPending}>
          <p className={page.hint}>
            {domain.emails_count > 0
              ? t('domains.remove.textEmails', { name: domain.display_name, count: domain.emails_count })
              : t('domains.remove.text', { name: domain.display_name })}
          </p>
          {domain.status === 'unpaid' ? (
            <p className={page.hint}>{t('domains.remove.invoiceCancelled')}</p>
          ) : domain.paid && domain.status !== 'paying' ? (
            <p className={page.hint}>{t('domains.remove.paidNotRefunded')}</p>
          ) : null}
          <Field label={t('domains.remove.type', { word: DOMAIN_DELETE_WORD })}>
            <VerbatimInput
              id={`${formId}-word`}
              value={word}
              onChange={(value) => {
                setWord(value);
                remove.reset();
              }}
            />
          </Field>
          <FormError>{errorText}</FormError>
          <FormActions>
            <Link to={domainsPath} className={buttonClass()}>
              {t('common.cancel')}
            </Link>
            <Button type="submit" variant="danger" disabled={!typed || remove.isPending}>
              <Trash2 aria-hidden />
              {t('domains.remove.button')}
            </Button>
          </FormActions>
        </form>
      ) : null}
    </DomainPage>
  );
}
