import { useId, useState, type FormEvent } from 'react';
import { type DomainEmail } from '@mailroom/protocol';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import rowStyles from '../../ui/address-rows.module.css';
import { raiseSuccess } from '../../ui/notices-store';
import { PasswordPairForm } from '../../ui/password-pair-form';
import page from '../../ui/settings-page.module.css';
import { useDelegateDomainEmail, useDomainEmailAccess } from './queries';
import styles from './domains.module.css';
import { FormError } from '../../ui/form-parts';
import { Field } from '../../ui/field';
import { MemberIdInput } from '../../ui/preset-input';

const MEMBER_ID = /^\d{12}$/;

/** A form opened under an address of a domain; `onDone` closes it. */
interface EmailFormProps {
  email: DomainEmail;
  domainId: number;
  onDone(): void;
}

/** Delegation to another member by member ID: they read and send as this address, and nothing else of yours. */
export function DelegateForm({ email, domainId, onDone }: EmailFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const delegate = useDelegateDomainEmail();
  const [memberId, setMemberId] = useState('');
  const typed = memberId.trim();
  const invalid = typed !== '' && !/^\d{0,12}$/.test(typed);
  const errorText = useErrorText(delegate.error ?? (invalid ? refusal('invalid_member_id') : null));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!MEMBER_ID.test(typed)) return;
    delegate.mutate(
      { domainId, emailId: email.id, memberId: typed },
      {
        onSuccess: (changed) => {
          raiseSuccess(
            t('domains.emails.delegated', { email: changed.email, name: changed.delegate?.name || typed }),
          );
          onDone();
        },
      },
    );
  }

  return (
    <form
      className={rowStyles.panel}
      onSubmit={submit}
      noValidate
      aria-busy={delegate.isPending}
      aria-label={t('domains.emails.delegateFor', { email: email.email })}
    >
      <p className={page.hint}>{t('domains.emails.delegateHint', { email: email.email })}</p>
      <div className={styles.inline}>
        <Field label={t('domains.emails.memberId')}>
          <MemberIdInput
            id={`${id}-member`}
            value={memberId}
            aria-invalid={errorText ? true : undefined}
            onChange={(value) => {
              setMemberId(value);
              delegate.reset();
            }}
          />
        </Field>
        <Button onClick={onDone}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" disabled={!MEMBER_ID.test(typed) || delegate.isPending}>
          {t('domains.emails.delegate')}
        </Button>
      </div>
      <FormError>{errorText}</FormError>
    </form>
  );
}

/** Password access for one address (PUT …/access); removing it ends the sessions signed in with it. */
export function EmailAccessForm({ email, domainId, onDone }: EmailFormProps) {
  const { t } = useTranslation();
  const update = useDomainEmailAccess();
  const ref = { domainId, emailId: email.id };
  return (
    <PasswordPairForm
      email={email.email}
      hasPassword={email.password_access}
      pending={update.isPending}
      serverError={useErrorText(update.error)}
      onEdit={update.reset}
      onSave={(password, confirm) =>
        update.mutate(
          { ...ref, access: { password, password_confirm: confirm } },
          {
            onSuccess: () => {
              raiseSuccess(t('domains.emails.accessSet', { email: email.email }));
              onDone();
            },
          },
        )
      }
      onRemove={async () => {
        await update.mutateAsync({ ...ref, access: { password: null } });
        raiseSuccess(t('domains.emails.accessRemoved', { email: email.email }));
        onDone();
      }}
      onDone={onDone}
    />
  );
}
