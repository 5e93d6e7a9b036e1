import { useEffect, useState } from 'react';
import clsx from 'clsx';
import { CircleAlert, CircleCheck, LogIn } from 'lucide-react';
import { errorMessage, isErrorCode } from '@mailroom/protocol';
import { loadErrorTexts, translateErrorCode, useTranslation } from '../../i18n';
import { PublicLayout } from '../shell';
import { Navigate, useSearchParams } from '../../lib/router';
import { buttonClass } from '../../ui/button';
import { savedRedirectPath, signInUrl, useUser } from '../account';
import card from '../../ui/card.module.css';
import { PasswordSignIn } from './password-sign-in';
import styles from './login-page.module.css';

/** The server sends a refused sign-in back here as ?error=<code> (e.g. invalid_member_id). */
function useSignInError(code: string | null): string | null {
  const { i18n } = useTranslation();
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (!isErrorCode(code)) return;
    let live = true;
    void loadErrorTexts()
      .catch(() => undefined)
      .then(() => live && setText(translateErrorCode(code) ?? errorMessage(code)));
    return () => {
      live = false;
    };
  }, [code, i18n.language]);
  return isErrorCode(code) ? text : null;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const params = useSearchParams();
  const user = useUser();
  const noRedirect = params.get('noredirect') === 'true';
  const errorCode = params.get('error');
  const signInError = useSignInError(errorCode);
  // Back to where the user was when the session ran out (SPEC §8), never off this origin.
  const target = savedRedirectPath();

  // Already signed in: nothing to do here, unless the user has just signed out (noredirect).
  if (user && !noRedirect) return <Navigate to={target} replace />;

  return (
    <PublicLayout>
      <section className={card.card} aria-labelledby="login-title">
        <span className={card.icon}>
          <LogIn aria-hidden />
        </span>
        <h1 id="login-title" className={card.title}>
          {t('login.title')}
        </h1>
        {signInError ? (
          <>
            <p className={styles.error} role="alert" data-testid="sign-in-error">
              <CircleAlert aria-hidden />
              {signInError}
            </p>
            {/* The flow itself broke (expired, cookies refused, another address): say what to do about it. */}
            {errorCode === 'auth_error' ? (
              <p className={card.text} data-testid="sign-in-help">
                {t('login.failedHelp')}
              </p>
            ) : null}
          </>
        ) : noRedirect ? (
          <p className={styles.notice} role="status">
            <CircleCheck aria-hidden />
            {t('login.signedOut')}
          </p>
        ) : null}
        {errorCode === 'auth_error' && signInError ? null : <p className={card.text}>{t('login.text')}</p>}
        {/* A real link: sign-on is a chain of full-page redirects through the provider, not a fetch. */}
        <a
          className={clsx(buttonClass('primary', 'large'), styles.signIn)}
          href={signInUrl(target)}
          data-testid="sign-in"
        >
          {t('login.button')}
        </a>
        <PasswordSignIn target={target} />
        <a className={styles.about} href="/about">
          {t('login.about')}
        </a>
      </section>
    </PublicLayout>
  );
}
