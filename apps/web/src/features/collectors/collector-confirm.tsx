import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { imapSecurityValues, type CollectorCreate, type ImapSecurity } from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import { SettingsPage } from '../../ui/settings-editor-header';
import page from '../../ui/settings-page.module.css';
import { collectorsPath, newCollectorPath, type ManualServer } from './paths';
import { ProviderNote } from './provider-note';
import { collectorQueries, useCreateCollector } from './queries';
import { serverText } from './texts';
import styles from './collectors.module.css';
import { FormActions, FormError } from '../../ui/form-parts';
import { Field } from '../../ui/field';
import { VerbatimInput } from '../../ui/preset-input';

/** The server set by hand, from the page's query (?host=&port=&security=), or null when discovery is to find it. */
function useManualServer(): ManualServer | null {
  const search = useSearchParams();
  const host = search.get('host');
  const security = search.get('security') as ImapSecurity | null;
  if (!host || !security || !imapSecurityValues.includes(security)) return null;
  return { host, port: Number(search.get('port')), security };
}

/** The refusals that belong beside the password; the others are the form's. */
const passwordCodes = new Set([
  'collector_invalid_password',
  'collector_app_password_required',
  'collector_oauth_required',
]);

/**
 * settings/collectors/confirm/{email}: the server (found, or set by hand), what its provider asks, the login (the
 * address unless changed), the password and whether to run the filters. The server signs in before saving; its
 * refusal is said in words beside the password or above the buttons. Created → back to the list, the import running.
 */
export function CollectorConfirmPage({ email }: { email: string }) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const manual = useManualServer();
  // After a reload (or a link) the confirm page asks discovery itself; from the create page the answer is kept.
  const found = useQuery({ ...collectorQueries.found(email), enabled: manual === null && email !== '' });
  const create = useCreateCollector();
  const [login, setLogin] = useState(email);
  const [password, setPassword] = useState('');
  const [applyFilters, setApplyFilters] = useState(false);
  const errorText = useErrorText(create.error);
  const foundError = useErrorText(found.error);
  const code = create.error instanceof ApiError ? create.error.code : null;
  const besidePassword = code !== null && passwordCodes.has(code);
  const server = manual ?? found.data?.server;
  const provider = manual ? null : found.data?.provider;
  const changePath = `${newCollectorPath}?email=${encodeURIComponent(email)}`;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) return;
    const body: CollectorCreate = { email, password, apply_filters: applyFilters };
    if (login.trim() && login.trim() !== email) body.login = login.trim();
    if (manual) Object.assign(body, manual);
    create.mutate(body, {
      onSuccess: (collector) => {
        raiseSuccess(t('collectors.created', { email: collector?.email ?? email }));
        navigate(collectorsPath);
      },
    });
  }

  return (
    <SettingsPage
      title={t('collectors.confirmTitle', { email })}
      back={{ to: collectorsPath, label: t('collectors.backToList') }}
    >
      <div className={styles.panel}>
        <p>
          {server
            ? t('collectors.serverLine', { server: serverText(t, server) })
            : found.isPending && !manual
              ? t('collectors.finding')
              : t('collectors.discovered')}
        </p>
        <FormError>{foundError}</FormError>
        <ProviderNote provider={provider} />
        <Link to={changePath} className={styles.change}>
          {t('collectors.changeServer')}
        </Link>
      </div>
      <form className={page.form} onSubmit={submit} noValidate aria-busy={create.isPending}>
        <Field label={t('collectors.login')} hint={t('collectors.loginHint')}>
          <VerbatimInput
            id={`${id}-login`}
            value={login}
            maxLength={254}
            onChange={(value) => {
              setLogin(value);
              create.reset();
            }}
          />
        </Field>
        <div className={page.field}>
          <label htmlFor={`${id}-password`}>{t('collectors.password')}</label>
          <input
            id={`${id}-password`}
            type="password"
            value={password}
            maxLength={1024}
            autoComplete="off"
            autoFocus
            aria-invalid={besidePassword ? true : undefined}
            aria-describedby={`${id}-password-error ${id}-password-hint`}
            onChange={(event) => {
              setPassword(event.target.value);
              create.reset();
            }}
          />
          <span id={`${id}-password-error`} className={page.error} role="alert">
            {besidePassword ? errorText : null}
          </span>
          {besidePassword ? <ProviderNote provider={provider} /> : null}
          <span id={`${id}-password-hint`} className={page.fieldHint}>
            {t('collectors.passwordHint')}
          </span>
        </div>
        <label className={page.check}>
          <input
            type="checkbox"
            checked={applyFilters}
            aria-describedby={`${id}-filters-hint`}
            onChange={(event) => setApplyFilters(event.target.checked)}
          />
          {t('collectors.applyFilters')}
        </label>
        <p id={`${id}-filters-hint`} className={page.fieldHint}>
          {t('collectors.applyFiltersHint')}
        </p>
        <FormError>{errorText && !besidePassword ? errorText : null}</FormError>
        <FormActions>
          <Link to={collectorsPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" variant="primary" disabled={!password || create.isPending}>
            {create.isPending ? t('collectors.creating') : t('collectors.submit')}
          </Button>
        </FormActions>
      </form>
    </SettingsPage>
  );
}
