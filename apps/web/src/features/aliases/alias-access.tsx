import { useId, useState, type FormEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type AliasEntry } from '@mailroom/protocol';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { useUpdateAliasAccess } from './queries';
import styles from './aliases.module.css';

/** The first rule a pair of passwords breaks before anything is sent (SPEC §5: passwords must match), or null. */
export function passwordPairProblem(password: string, confirm: string): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'password_too_short';
  if ([...password].length > PASSWORD_MAX_LENGTH) return 'password_too_long';
  if (password !== confirm) return 'passwords_do_not_match';
  return null;
}

/**
 * Password access for one alias (PUT user/aliases/update_access): whoever has the password signs in as the alias-only
 * user (SPEC §6). The password is typed twice and must match before it is sent; removing it ends their sessions.
 */
export function AliasAccessForm({ alias, onDone }: { alias: AliasEntry; onDone(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdateAliasAccess();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const errorText = useErrorText(update.error ?? (problem ? refusal(problem) : null));

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = passwordPairProblem(password, confirm);
    setProblem(found);
    update.reset();
    if (found) return;
    update.mutate(
      { email: alias.email, password, password_confirm: confirm },
      {
        onSuccess: () => {
          raiseSuccess(t('aliases.accessSet', { email: alias.email }));
          onDone();
        },
      },
    );
  }

  const edited = () => {
    setProblem(null);
    update.reset();
  };

  return (
    <form
      className={styles.panel}
      onSubmit={submit}
      noValidate
      aria-busy={update.isPending}
      aria-label={t('aliases.accessFor', { email: alias.email })}
    >
      <p className={page.hint}>
        {alias.password_access ? t('aliases.accessOnHint') : t('aliases.accessHint', { email: alias.email })}
      </p>
      <div className={styles.passwords}>
        <div className={page.field}>
          <label htmlFor={`${id}-password`}>{t('aliases.password')}</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            value={password}
            maxLength={PASSWORD_MAX_LENGTH}
            aria-invalid={problem === 'password_too_short' || problem === 'password_too_long' || undefined}
            onChange={(event) => {
              setPassword(event.target.value);
              edited();
            }}
          />
        </div>
        <div className={page.field}>
          <label htmlFor={`${id}-confirm`}>{t('aliases.passwordConfirm')}</label>
          <input
            id={`${id}-confirm`}
            type="password"
            autoComplete="new-password"
            value={confirm}
            maxLength={PASSWORD_MAX_LENGTH}
            aria-invalid={problem === 'passwords_do_not_match' || undefined}
            onChange={(event) => {
              setConfirm(event.target.value);
              edited();
            }}
          />
        </div>
      </div>
      <span className={page.fieldHint}>{t('aliases.passwordHint', { min: PASSWORD_MIN_LENGTH })}</span>
      {errorText ? (
        <p className={page.error} role="alert">
          {errorText}
        </p>
      ) : null}
      <div className={page.actions}>
        {alias.password_access ? (
          <Button variant="ghost" onClick={() => setRemoving(true)} disabled={update.isPending}>
            {t('aliases.accessRemove')}
          </Button>
        ) : null}
        <span className={page.grow} />
        <Button onClick={onDone}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" disabled={update.isPending}>
          {alias.password_access ? t('aliases.accessChange') : t('aliases.accessGrant')}
        </Button>
      </div>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={t('aliases.accessRemoveTitle', { email: alias.email })}
        text={t('aliases.accessRemoveText')}
        confirmLabel={t('aliases.accessRemove')}
        danger
        onConfirm={async () => {
          await update.mutateAsync({ email: alias.email, password: null });
          raiseSuccess(t('aliases.accessRemoved', { email: alias.email }));
          onDone();
        }}
        onError={() => {}}
      />
    </form>
  );
}
