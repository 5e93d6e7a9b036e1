import { useId, useState, type FormEvent } from 'react';
import { PAID_ALIAS_PRICE, validateAliasName } from '@mailroom/protocol';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import { Preloader } from '../../ui/preloader';
import { SettingsEditorHeader } from '../../ui/settings-editor-header';
import page from '../../ui/settings-page.module.css';
import { aliasesPath } from './paths';
import { useAliasRows, useCreateAlias } from './queries';
import styles from './aliases.module.css';

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
  const [name, setName] = useState('');
  const [paidChosen, setPaid] = useState(!freeAvailable);
  // The free alias taken meanwhile (in another tab): only a paid one is left.
  const paid = paidChosen || !freeAvailable;
  const [shown, setShown] = useState(false);
  const trimmed = name.trim();
  const localCode = validateAliasName(trimmed);
  // The server's refusal stays until the name or the kind changes (create.reset on each change).
  const error = create.error ?? (shown && localCode ? refusal(localCode) : null);
  const errorText = useErrorText(error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setShown(true);
    if (localCode) return;
    create.mutate(
      { name: trimmed, paid },
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
    <section className={page.page} aria-labelledby={`${id}-title`}>
      <SettingsEditorHeader
        backTo={aliasesPath}
        backLabel={t('aliases.backToList')}
        titleId={`${id}-title`}
        title={title}
      />
      <form className={page.form} onSubmit={submit} noValidate aria-busy={create.isPending}>
        <div className={page.field}>
          <label htmlFor={`${id}-name`}>{t('aliases.name')}</label>
          <span className={styles.nameRow}>
            <input
              id={`${id}-name`}
              value={name}
              maxLength={64}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={errorText ? true : undefined}
              aria-describedby={`${id}-name-hint ${id}-name-error`}
              onChange={(event) => {
                setName(event.target.value);
                setShown(event.target.value.trim() !== '');
                create.reset();
              }}
            />
            {domain ? <span className={styles.domain}>@{domain}</span> : null}
          </span>
          <span id={`${id}-name-error`} className={page.error} role="alert">
            {errorText}
          </span>
          <span id={`${id}-name-hint`} className={page.fieldHint}>
            {t('aliases.nameHint')}
          </span>
        </div>

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

        <div className={page.actions}>
          <span className={page.grow} />
          <Link to={aliasesPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {paid ? t('aliases.buy') : t('aliases.createFree')}
          </Button>
        </div>
      </form>
    </section>
  );
}
