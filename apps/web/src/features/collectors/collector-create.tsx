import { useId, useState, type FormEvent } from 'react';
import { Search, Server } from 'lucide-react';
import { imapSecurityValues, type ImapSecurity } from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { SettingsPage } from '../../ui/settings-editor-header';
import page from '../../ui/settings-page.module.css';
import { collectorsPath, confirmCollectorPath } from './paths';
import { ProviderNote } from './provider-note';
import { useFindImap } from './queries';
import { serverText } from './texts';
import styles from './collectors.module.css';
import { NativeSelect } from '../../ui/select';
import { Field } from '../../ui/field';
import { FormActions } from '../../ui/form-parts';
import { VerbatimInput } from '../../ui/preset-input';

/** An address as mail programs take it: something@domain.tld (the server judges the rest: collector_invalid_email). */
export const looksLikeAddress = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);

/** The port a security mode usually listens on. */
const defaultPort: Record<ImapSecurity, number> = { tls: 993, starttls: 143, none: 143 };

/**
 * settings/collectors/create: the address, then find_imap shows what was found (host, port, security, where from, and
 * what the provider asks, such as an app password) — or the server set by hand, always offered, opened by itself when
 * nothing is found. Continue leads to confirm/{email}.
 */
export function CollectorCreatePage() {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const find = useFindImap();
  const [email, setEmail] = useState(useSearchParams().get('email') ?? '');
  const [typo, setTypo] = useState(false);
  const [manualOpen, setManualOpen] = useState(false);
  const address = email.trim();
  const errorText = useErrorText(typo ? refusal('collector_invalid_email') : find.error);
  const found = find.data && find.variables === address ? find.data : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!address) return;
    if (!looksLikeAddress(address)) {
      setTypo(true);
      return;
    }
    if (found) {
      navigate(confirmCollectorPath(address));
      return;
    }
    find.mutate(address, {
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'mail_server_not_found') setManualOpen(true);
      },
    });
  }

  return (
    <SettingsPage
      title={t('collectors.createTitle')}
      back={{ to: collectorsPath, label: t('collectors.backToList') }}
    >
      <form className={page.form} onSubmit={submit} noValidate aria-busy={find.isPending}>
        <Field label={t('collectors.email')} error={errorText} hint={t('collectors.emailHint')} announce>
          <VerbatimInput
            type="email"
            value={email}
            maxLength={254}
            placeholder="ivan@mail.ru"
            onChange={(value) => {
              setEmail(value);
              setTypo(false);
              find.reset();
            }}
          />
        </Field>
        {found ? (
          <div className={styles.panel} role="group" aria-labelledby={`${id}-found`}>
            <p id={`${id}-found`} className={styles.panelTitle}>
              <Server aria-hidden />
              {t('collectors.found')}
            </p>
            <p>
              {t('collectors.foundAt', {
                server: serverText(t, found.server),
                source: t(`collectors.source.${found.source}`),
              })}
            </p>
            <ProviderNote provider={found.provider} />
          </div>
        ) : null}
        <FormActions>
          <Link to={collectorsPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" variant="primary" disabled={find.isPending || !address}>
            {found ? null : <Search aria-hidden />}
            {find.isPending
              ? t('collectors.finding')
              : found
                ? t('collectors.continue')
                : t('collectors.find')}
          </Button>
        </FormActions>
      </form>
      <ManualServer
        email={address}
        open={manualOpen}
        onToggle={setManualOpen}
        onInvalidEmail={() => setTypo(true)}
      />
    </SettingsPage>
  );
}

/** "Set the server by hand": host, port (invalid_port outside 1–65535) and security, always available. */
function ManualServer({
  email,
  open,
  onToggle,
  onInvalidEmail,
}: {
  email: string;
  open: boolean;
  onToggle(open: boolean): void;
  onInvalidEmail(): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [host, setHost] = useState('');
  const [port, setPort] = useState('993');
  const [security, setSecurity] = useState<ImapSecurity>('tls');
  const [problem, setProblem] = useState<'host' | 'port' | null>(null);
  const portError = useErrorText(problem === 'port' ? refusal('invalid_port') : null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!looksLikeAddress(email)) return onInvalidEmail();
    const number = Number(port);
    if (!host.trim()) return setProblem('host');
    if (!/^\d{1,5}$/.test(port.trim()) || number < 1 || number > 65535) return setProblem('port');
    navigate(confirmCollectorPath(email, { host: host.trim(), port: number, security }));
  }

  return (
    <details
      className={styles.manual}
      open={open}
      onToggle={(event) => onToggle((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>{t('collectors.manual')}</summary>
      <form className={page.form} onSubmit={submit} noValidate>
        <p className={page.hint}>{t('collectors.manualHint')}</p>
        <div className={styles.serverFields}>
          <Field
            label={t('collectors.host')}
            error={problem === 'host' && t('collectors.hostRequired')}
            announce
          >
            <VerbatimInput
              value={host}
              maxLength={253}
              placeholder="imap.example.com"
              onChange={(value) => {
                setHost(value);
                setProblem(null);
              }}
            />
          </Field>
          <Field label={t('collectors.port')} error={portError} announce>
            <input
              value={port}
              inputMode="numeric"
              maxLength={5}
              autoComplete="off"
              onChange={(event) => {
                setPort(event.target.value);
                setProblem(null);
              }}
            />
          </Field>
          <Field label={t('collectors.securityLabel')}>
            <NativeSelect
              value={security}
              options={imapSecurityValues.map((value) => ({
                value,
                label: t(`collectors.security.${value}`),
              }))}
              onChange={(value) => {
                const next = value as ImapSecurity;
                // The usual port follows the security, unless one was typed.
                if (port === String(defaultPort[security])) setPort(String(defaultPort[next]));
                setSecurity(next);
              }}
            />
          </Field>
        </div>
        <FormActions>
          <Button type="submit">{t('collectors.continueManual')}</Button>
        </FormActions>
      </form>
    </details>
  );
}
