import { useId, useState, type FormEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@mailroom/protocol';
import { useTranslation } from '../i18n';
import { Button } from './button';
import { useCatalogueText } from './catalogue-text';
import { ConfirmDialog } from './confirm-dialog';
import page from './settings-page.module.css';
import rows from './address-rows.module.css';
import { FormActions, FormError } from './form-parts';
import { Field } from './field';
import { NewPasswordInput } from './preset-input';

/** The first rule a pair of passwords breaks before anything is sent (SPEC §5: passwords must match), or null. */
export function passwordPairProblem(password: string, confirm: string): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'password_too_short';
  if ([...password].length > PASSWORD_MAX_LENGTH) return 'password_too_long';
  if (password !== confirm) return 'passwords_do_not_match';
  return null;
}

/**
 * Password access to one address (an alias, an address on a domain): whoever has the password signs in as the
 * address-only user (SPEC §6). The password is typed twice and checked (length, the two equal) before `onSave` is
 * called; removing it asks first. The server's refusal reaches it worded (`serverError`), as ui never reads the api.
 */
export function PasswordPairForm({
  email,
  hasPassword,
  pending,
  serverError,
  onEdit,
  onSave,
  onRemove,
  onDone,
}: {
  email: string;
  hasPassword: boolean;
  pending: boolean;
  /** The server's refusal of the last save, in words (null: none). */
  serverError: string | null;
  /** Something was typed: the server's last refusal no longer applies. */
  onEdit(): void;
  onSave(password: string, confirm: string): void;
  /** Removes the password; the dialog stays open with its error when it fails. */
  onRemove(): Promise<void>;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const problemText = useCatalogueText(problem);
  const errorText = serverError ?? problemText;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = passwordPairProblem(password, confirm);
    setProblem(found);
    onEdit();
    if (!found) onSave(password, confirm);
  }

  const edited = () => {
    setProblem(null);
    onEdit();
  };

  return (
    <form
      className={rows.panel}
      onSubmit={submit}
      noValidate
      aria-busy={pending}
      aria-label={t('passwordAccess.accessFor', { email })}
    >
      <p className={page.hint}>
        {hasPassword ? t('passwordAccess.onHint') : t('passwordAccess.hint', { email })}
      </p>
      <div className={rows.passwords}>
        <Field label={t('passwordAccess.password')}>
          <NewPasswordInput
            id={`${id}-password`}
            value={password}
            aria-invalid={problem === 'password_too_short' || problem === 'password_too_long' || undefined}
            onChange={(value) => {
              setPassword(value);
              edited();
            }}
          />
        </Field>
        <Field label={t('passwordAccess.passwordConfirm')}>
          <NewPasswordInput
            id={`${id}-confirm`}
            value={confirm}
            aria-invalid={problem === 'passwords_do_not_match' || undefined}
            onChange={(value) => {
              setConfirm(value);
              edited();
            }}
          />
        </Field>
      </div>
      <span className={page.fieldHint}>{t('passwordAccess.passwordHint', { min: PASSWORD_MIN_LENGTH })}</span>
      <FormError className={page.error}>{errorText}</FormError>
      <FormActions
        start={
          hasPassword ? (
            <Button variant="ghost" onClick={() => setRemoving(true)} disabled={pending}>
              {t('passwordAccess.remove')}
            </Button>
          ) : null
        }
      >
        <Button onClick={onDone}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" disabled={pending}>
          {hasPassword ? t('passwordAccess.change') : t('passwordAccess.grant')}
        </Button>
      </FormActions>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={t('passwordAccess.removeTitle', { email })}
        text={t('passwordAccess.removeText')}
        confirmLabel={t('passwordAccess.remove')}
        danger
        onConfirm={onRemove}
        onError={() => {}}
      />
    </form>
  );
}
