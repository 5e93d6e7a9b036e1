import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, KeyRound, Send } from 'lucide-react';
import {
  CODE_TTL_SECONDS,
  formatFullDate,
  PASSWORD_MIN_LENGTH,
  type AuthLogEntry,
  type SecurityResponse,
} from '@mailroom/protocol';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { accountKeys } from '../account';
import { loadAccessAddresses } from '../domains';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import { AccessGrants } from './access-grants';
import { Group, OwnerOnly, SectionLoading } from './security-parts';
import {
  AUTH_LOG_PAGE_SIZE,
  useAuthLog,
  useSecurity,
  useSendPasswordCode,
  useSetPassword,
  useUpdateUserInfo,
} from './security-queries';
import { summariseUserAgent } from './user-agent';
import styles from './security.module.css';
import { SettingsPage } from '../../ui/settings-editor-header';
import { FormActions, FormError } from '../../ui/form-parts';
import { Field } from '../../ui/field';
import { TableHead } from '../../ui/table-head';
import { NewPasswordInput } from '../../ui/preset-input';

// The addresses with password access (aliases and addresses on own domains), with links to where each is set.
const AccessAddresses = lazyChunk(loadAccessAddresses);

/** A new code at most once a minute (security.ts: sendcode answers too_many_requests sooner). */
export const RESEND_AFTER_S = 60;

/**
 * settings/access (SPEC §2): names, the mailbox password, the addresses with password access (each set where the
 * address is managed: aliases, a domain's addresses), the sign-in log and impersonation.
 */
export default function AccessSection() {
  return (
    <OwnerOnly>
      <Access />
    </OwnerOnly>
  );
}

function Access() {
  const { t } = useTranslation();
  const security = useSecurity();
  return (
    <SettingsPage title={t('security.title')}>
      {security.data ? (
        <>
          <NamesForm security={security.data} />
          <PasswordForm security={security.data} />
          <Group title={t('domains.access.title')}>
            <LazyPart>
              <AccessAddresses />
            </LazyPart>
          </Group>
          <AuthLog />
          <Group title={t('security.impersonation.title')}>
            <p className={page.hint}>{t('security.impersonation.intro')}</p>
            <AccessGrants kind="impersonation" grants={security.data.impersonation} />
          </Group>
        </>
      ) : (
        <SectionLoading failed={security.isError} onRetry={() => void security.refetch()} />
      )}
    </SettingsPage>
  );
}

function NamesForm({ security }: { security: SecurityResponse }) {
  const { t } = useTranslation();
  const id = useId();
  const client = useQueryClient();
  const update = useUpdateUserInfo();
  const [first, setFirst] = useState(security.first_name);
  const [last, setLast] = useState(security.last_name);
  const error = useErrorText(update.error);
  const changed = first.trim() !== security.first_name || last.trim() !== security.last_name;

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      { first_name: first.trim(), last_name: last.trim() },
      {
        onSuccess: () => {
          raiseSuccess(t('security.names.saved'));
          // The names are the account's display name, which the user menu shows.
          void client.invalidateQueries({ queryKey: accountKeys.access });
        },
      },
    );
  }

  return (
    <Group title={t('security.names.title')}>
      <form className={page.form} onSubmit={submit} noValidate aria-busy={update.isPending}>
        <div className={styles.twoColumns}>
          {(
            [
              ['first', first, setFirst, 'given-name'],
              ['last', last, setLast, 'family-name'],
            ] as const
          ).map(([part, value, set, autoComplete]) => (
            <Field key={part} label={t(`security.names.${part}`)}>
              <input
                id={`${id}-${part}`}
                value={value}
                maxLength={100}
                autoComplete={autoComplete}
                onChange={(event) => set(event.target.value)}
              />
            </Field>
          ))}
        </div>
        <p className={page.hint}>
          {t('security.names.passport', { level: t(`security.passportLevels.${security.passport_level}`) })}
        </p>
        <FormError>{error}</FormError>
        <FormActions>
          <Button type="submit" variant="primary" disabled={!changed || update.isPending}>
            {t('common.save')}
          </Button>
        </FormActions>
      </form>
    </Group>
  );
}

/** Seconds left until `until` (ms since the epoch), counted down every second; 0 once it has passed. */
function useSecondsLeft(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    setNow(Date.now());
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.floor((until - now) / 1000));
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * The mailbox password of the primary address: a code sent to the wallet application first, then the code and the
 * password twice. password/new while there is none, password/change to replace it.
 */
function PasswordForm({ security }: { security: SecurityResponse }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const send = useSendPasswordCode();
  const set = useSetPassword();
  const change = security.has_password;
  const [sent, setSent] = useState<{ expiresAt: number; resendAt: number } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [checked, setChecked] = useState<string | null>(null);
  const validFor = useSecondsLeft(sent?.expiresAt ?? null);
  const resendIn = useSecondsLeft(sent?.resendAt ?? null);
  // The day's last code was given (PASSWORD_CODES_PER_DAY): no new one until then; a code already sent still works.
  const lockedUntil = security.password_codes_locked_until;
  const sendError = useErrorText(lockedUntil ? null : send.error);
  const setError = useErrorText(checked ? refusal(checked) : set.error);

  function sendCode() {
    send.mutate(
      { purpose: change ? 'change' : 'new' },
      {
        onSuccess: ({ expires_in }) => {
          const now = Date.now();
          setSent({ expiresAt: now + expires_in * 1000, resendAt: now + RESEND_AFTER_S * 1000 });
        },
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    set.reset();
    // The checks the server makes, made first, so a typo costs none of the code's tries.
    const problem = !/^\d{6}$/.test(code.trim())
      ? 'request_code_not_found'
      : password.length < PASSWORD_MIN_LENGTH
        ? 'password_too_short'
        : password !== confirm
          ? 'passwords_do_not_match'
          : null;
    setChecked(problem);
    if (problem) return;
    set.mutate(
      { change, body: { code: code.trim(), password, password_confirm: confirm } },
      {
        onSuccess: () => {
          raiseSuccess(change ? t('security.password.changed') : t('security.password.set'));
          setSent(null);
          setCode('');
          setPassword('');
          setConfirm('');
          send.reset();
        },
      },
    );
  }

  return (
    <Group title={t('security.password.title')}>
      <p className={page.hint}>
        {change
          ? t('security.password.hasOne', { email: security.password_email })
          : t('security.password.none', { email: security.password_email })}
      </p>
      <div className={styles.codeRow}>
        <Button onClick={sendCode} disabled={send.isPending || resendIn > 0 || lockedUntil !== null}>
          <Send aria-hidden />
          {sent ? t('security.password.resend') : t('security.password.sendCode')}
        </Button>
        <span className={page.hint} role="status" aria-live="polite">
          {sent
            ? validFor > 0
              ? `${t('security.password.codeSent', { minutes: Math.round(CODE_TTL_SECONDS / 60) })} ${t(
                  'security.password.validFor',
                  { time: clock(validFor) },
                )}${resendIn > 0 ? ` ${t('security.password.resendIn', { seconds: resendIn })}` : ''}`
              : t('security.password.expired')
            : lockedUntil
              ? null
              : t('security.password.codeHint')}
        </span>
      </div>
      {lockedUntil ? (
        <p className={page.error} role="alert">
          {t('security.password.locked', {
            time: formatFullDate(lockedUntil, new Date(), i18n.language),
          })}
        </p>
      ) : null}
      <FormError>{sendError}</FormError>
      {sent ? (
        <form className={page.form} onSubmit={submit} noValidate aria-busy={set.isPending}>
          <div className={styles.threeColumns}>
            <Field label={t('security.password.code')}>
              <input
                id={`${id}-code`}
                value={code}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                onChange={(event) => setCode(event.target.value)}
              />
            </Field>
            <Field label={t('security.password.password')}>
              <NewPasswordInput
                id={`${id}-password`}
                value={password}
                aria-invalid={checked === 'password_too_short' || undefined}
                onChange={setPassword}
              />
            </Field>
            <Field label={t('security.password.confirm')}>
              <NewPasswordInput
                id={`${id}-confirm`}
                value={confirm}
                aria-invalid={checked === 'passwords_do_not_match' || undefined}
                onChange={setConfirm}
              />
            </Field>
          </div>
          <p className={page.fieldHint}>{t('security.password.rules', { min: PASSWORD_MIN_LENGTH })}</p>
          <FormError>{setError}</FormError>
          <FormActions>
            <Button type="submit" variant="primary" disabled={set.isPending}>
              <KeyRound aria-hidden />
              {change ? t('security.password.submitChange') : t('security.password.submitNew')}
            </Button>
          </FormActions>
        </form>
      ) : null}
    </Group>
  );
}

/** The sign-in log, newest first, a page at a time. */
function AuthLog() {
  const { t } = useTranslation();
  const [pageNumber, setPageNumber] = useState(1);
  const log = useAuthLog(pageNumber);
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / AUTH_LOG_PAGE_SIZE)) : 1;
  return (
    <Group title={t('security.log.title')}>
      <p className={page.hint}>{t('security.log.intro')}</p>
      {log.data ? (
        log.data.entries.length === 0 ? (
          <p className={page.muted}>{t('security.log.empty')}</p>
        ) : (
          <AuthLogTable entries={log.data.entries} />
        )
      ) : (
        <SectionLoading failed={log.isError} onRetry={() => void log.refetch()} />
      )}
      {pages > 1 ? (
        <nav className={styles.pager} aria-label={t('security.log.pages')}>
          <IconButton
            label={t('security.log.previous')}
            disabled={pageNumber <= 1}
            onClick={() => setPageNumber((n) => n - 1)}
          >
            <ChevronLeft aria-hidden />
          </IconButton>
          <span className={page.count}>{t('security.log.page', { page: pageNumber, pages })}</span>
          <IconButton
            label={t('security.log.next')}
            disabled={pageNumber >= pages}
            onClick={() => setPageNumber((n) => n + 1)}
          >
            <ChevronRight aria-hidden />
          </IconButton>
        </nav>
      ) : null}
    </Group>
  );
}

function AuthLogTable({ entries }: { entries: readonly AuthLogEntry[] }) {
  const { t, i18n } = useTranslation();
  const columns = {
    at: t('security.log.at'),
    method: t('security.log.method'),
    result: t('security.log.result'),
    ip: t('security.log.ip'),
    browser: t('security.log.browser'),
    who: t('security.log.who'),
  };
  return (
    <table className={styles.log} aria-label={t('security.log.title')}>
      <TableHead columns={columns} />
      <tbody>
        {entries.map((entry, index) => (
          <tr key={`${entry.at}-${index}`}>
            <td data-label={columns.at}>
              <time dateTime={entry.at}>{formatFullDate(entry.at, new Date(), i18n.language)}</time>
            </td>
            <td data-label={columns.method}>{t(`security.log.methods.${entry.method}`)}</td>
            <td data-label={columns.result}>
              <span className={entry.success ? styles.success : styles.failure}>
                {entry.success ? t('security.log.succeeded') : t('security.log.failed')}
              </span>
            </td>
            <td data-label={columns.ip} className={styles.mono}>
              {entry.ip}
            </td>
            <td data-label={columns.browser} title={entry.user_agent}>
              {summariseUserAgent(entry.user_agent)}
            </td>
            <td data-label={columns.who}>
              {[
                entry.address,
                entry.member_id ? t('security.log.member', { memberId: entry.member_id }) : null,
              ]
                .filter(Boolean)
                .join(' · ') || '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
