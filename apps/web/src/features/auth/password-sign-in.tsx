import { useId, useState, type FormEvent } from 'react';
import type { PasswordLoginRequest } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import styles from './login-page.module.css';
import { FormError } from '../../ui/form-parts';

/**
 * Sign-in to one address with the password its owner set (POST /auth/pw/login): the alias-only user of SPEC §6, who
 * then sees only the mail to that address. A full page load follows, so the app starts afresh with that session.
 */
export function PasswordSignIn({ target }: { target: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body: PasswordLoginRequest = { email: email.trim(), password };
      await call(routes.passwordSignIn, { body });
      window.location.assign(target);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <details className={styles.password}>
      <summary>{t('login.passwordTitle')}</summary>
      <form className={styles.passwordForm} onSubmit={(event) => void submit(event)} aria-busy={busy}>
        <p className={styles.passwordText}>{t('login.passwordText')}</p>
        <label htmlFor={`${id}-email`}>{t('login.address')}</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <label htmlFor={`${id}-password`}>{t('login.password')}</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormError className={styles.error}>{errorText}</FormError>
        <Button type="submit" disabled={busy}>
          {t('login.passwordButton')}
        </Button>
      </form>
    </details>
  );
}
