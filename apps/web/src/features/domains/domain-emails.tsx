import { useId, useState, type FormEvent } from 'react';
import clsx from 'clsx';
import { CheckCircle2, Lock, Plus, Trash2, UserX, UserPlus } from 'lucide-react';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  validateAliasName,
  type Domain,
  type DomainEmail,
} from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { refusal, useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { DomainPage, notFound } from './domain-page';
import { InvoicePanel } from './domain-list';
import { confirmDomainPath } from './paths';
import {
  useCheckDomainEmailPayment,
  useConfirmDomainEmail,
  useCreateDomainEmail,
  useDelegateDomainEmail,
  useDeleteDomainEmail,
  useDomainEmailAccess,
  useDomainEmails,
  useDomains,
  useSetCatchAll,
} from './queries';
import { emailStatusText } from './texts';
import styles from './domains.module.css';

const MEMBER_ID = /^\d{12}$/;

/**
 * The first rule a pair of passwords breaks before anything is sent (SPEC §5: passwords must match), or null — the
 * rules of an alias's password access (aliases/alias-access.tsx), repeated here so this chunk shares none with the
 * aliases screen (each shared module becomes a chunk the shell's first one has to name).
 */
export function passwordPairProblem(password: string, confirm: string): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'password_too_short';
  if ([...password].length > PASSWORD_MAX_LENGTH) return 'password_too_long';
  if (password !== confirm) return 'passwords_do_not_match';
  return null;
}

/**
 * settings/domains/emails/{id}: the addresses on one domain. Create one (local part, catch-all or not; the address is
 * then activated, which needs the domain's MX to point at the service: invalid_domain_for_mail_server otherwise, and the
 * address stays prepared); catch-all on and off; delegate to a member or take it back; password access; delete (its
 * mail stays); the invoice of a paid one.
 */
export function DomainEmailsPage({ id }: { id: number }) {
  const { t } = useTranslation();
  const domains = useDomains();
  const domain = domains.data?.find((d) => d.id === id);
  const query =
    domains.data && !domain ? { ...domains, data: undefined, isError: true, error: notFound } : domains;
  return (
    <DomainPage title={t('domains.emails.pageTitle', { name: domain?.display_name ?? '' })} query={query}>
      {domain ? <Emails domain={domain} /> : null}
    </DomainPage>
  );
}

function Emails({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  const emails = useDomainEmails(domain.id);
  const confirm = useConfirmDomainEmail();
  // The last activation's refusal, by address: shown in its row until it is tried again.
  const [refused, setRefused] = useState<Record<number, unknown>>({});

  function activate(email: DomainEmail) {
    setRefused(({ [email.id]: _, ...rest }) => rest);
    confirm.mutate(
      { domainId: domain.id, emailId: email.id },
      {
        onSuccess: (active) => raiseSuccess(t('domains.emails.activated', { email: active.email })),
        onError: (error) => setRefused((all) => ({ ...all, [email.id]: error })),
      },
    );
  }

  if (domain.status !== 'succeed')
    return (
      <div className={page.state}>
        <p>{t('domains.emails.notVerified')}</p>
        <Link to={confirmDomainPath(domain.id)}>{t('domains.verify')}</Link>
      </div>
    );

  return (
    <>
      <p className={page.hint}>{t('domains.emails.intro')}</p>
      <CreateEmail domain={domain} onCreated={activate} />
      {emails.data ? (
        emails.data.length > 0 ? (
          <ul className={page.list} aria-label={t('domains.emails.listLabel', { name: domain.display_name })}>
            {emails.data.map((email) => (
              <EmailItem
                key={email.id}
                email={email}
                domain={domain}
                refused={refused[email.id]}
                activating={confirm.isPending && confirm.variables?.emailId === email.id}
                onActivate={() => activate(email)}
              />
            ))}
          </ul>
        ) : (
          <p className={page.muted}>{t('domains.emails.empty')}</p>
        )
      ) : emails.isError ? (
        <div className={page.state} role="alert">
          <p>{t('domains.loadFailed')}</p>
          <Button onClick={() => void emails.refetch()}>{t('domains.retry')}</Button>
        </div>
      ) : (
        <div className={page.skeleton} aria-hidden>
          <span />
          <span />
        </div>
      )}
    </>
  );
}

function CreateEmail({ domain, onCreated }: { domain: Domain; onCreated(email: DomainEmail): void }) {
  const { t } = useTranslation();
  const id = useId();
  const create = useCreateDomainEmail();
  const [name, setName] = useState('');
  const [catchAll, setCatchAll] = useState(false);
  const [shown, setShown] = useState(false);
  const trimmed = name.trim();
  // The alias rules checked as typed, but for the stop list: whether role names (sales@, info@) are refused on an
  // own domain is the server's to say (its refusal then shows here the same way).
  const checked = validateAliasName(trimmed);
  const localCode = checked === 'alias_stoplist' ? null : checked;
  const errorText = useErrorText(create.error ?? (shown && localCode ? refusal(localCode) : null));

  function submit(event: FormEvent) {
    event.preventDefault();
    setShown(true);
    if (localCode) return;
    create.mutate(
      { domainId: domain.id, name: trimmed, catchAll },
      {
        onSuccess: (email) => {
          raiseSuccess(t('domains.emails.created', { email: email.email }));
          setName('');
          setShown(false);
          setCatchAll(false);
          if (email.status === 'prepared') onCreated(email);
        },
      },
    );
  }

  return (
    <form
      className={page.group}
      onSubmit={submit}
      noValidate
      aria-busy={create.isPending}
      aria-label={t('domains.emails.create')}
    >
      <div className={page.field}>
        <label htmlFor={`${id}-name`}>{t('domains.emails.name')}</label>
        <span className={styles.nameRow}>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={64}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={errorText ? true : undefined}
            aria-describedby={`${id}-name-error`}
            onChange={(event) => {
              setName(event.target.value);
              setShown(event.target.value.trim() !== '');
              create.reset();
            }}
          />
          <span className={styles.domain}>@{domain.name}</span>
        </span>
        <span id={`${id}-name-error`} className={page.error} role="alert">
          {errorText}
        </span>
      </div>
      <label className={page.check}>
        <input type="checkbox" checked={catchAll} onChange={(event) => setCatchAll(event.target.checked)} />
        {t('domains.emails.catchAll')}
      </label>
      <span className={page.fieldHint}>{t('domains.emails.catchAllHint', { name: domain.name })}</span>
      <div className={page.actions}>
        <span className={page.grow} />
        <Button type="submit" variant="primary" disabled={create.isPending}>
          <Plus aria-hidden />
          {t('domains.emails.create')}
        </Button>
      </div>
    </form>
  );
}

function EmailItem({
  email,
  domain,
  refused,
  activating,
  onActivate,
}: {
  email: DomainEmail;
  domain: Domain;
  refused: unknown;
  activating: boolean;
  onActivate(): void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [panel, setPanel] = useState<'access' | 'delegate' | null>(null);
  const [removing, setRemoving] = useState(false);
  const catchAll = useSetCatchAll();
  const remove = useDeleteDomainEmail();
  const delegate = useDelegateDomainEmail();
  const refusedText = useErrorText(refused ?? null);
  const mxRefused = refused instanceof ApiError && refused.code === 'invalid_domain_for_mail_server';
  const ref = { domainId: domain.id, emailId: email.id };
  const active = email.status === 'succeed';
  const payable = email.status === 'unpaid' || email.status === 'paying';
  const toggle = (which: 'access' | 'delegate') => setPanel((open) => (open === which ? null : which));
  const since = new Date(email.created_at).toLocaleDateString(i18n.language);

  return (
    <li className={styles.row} aria-labelledby={`${id}-email`}>
      <div className={styles.rowTop}>
        <span className={page.itemMain}>
          <span id={`${id}-email`} className={page.itemName}>
            {email.email}
          </span>
          <span className={page.itemSub}>
            {[
              email.catch_all ? t('domains.emails.catchAllOn') : null,
              email.password_access ? t('domains.emails.passwordOn') : null,
              email.delegate
                ? t('domains.emails.delegatedTo', {
                    name: email.delegate.name,
                    memberId: email.delegate.member_id,
                  })
                : null,
              t('domains.emails.since', { date: since }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
        </span>
        <span className={clsx(styles.status, styles[email.status])}>{t(emailStatusText[email.status])}</span>
      </div>

      {email.status === 'prepared' ? (
        <div className={styles.panel}>
          <p className={page.hint}>{t('domains.emails.preparedHint')}</p>
          {refusedText ? (
            <p className={clsx(styles.answer, !mxRefused && page.error)} role="alert">
              {mxRefused ? t('domains.emails.mxRefused', { name: domain.name }) : refusedText}
              {mxRefused ? (
                <>
                  {' '}
                  <Link to={confirmDomainPath(domain.id)}>{t('domains.emails.seeDns')}</Link>
                </>
              ) : null}
            </p>
          ) : null}
          <div className={page.actions}>
            <Button variant="primary" onClick={onActivate} disabled={activating}>
              <CheckCircle2 aria-hidden />
              {t('domains.emails.activate')}
            </Button>
          </div>
        </div>
      ) : null}

      {payable ? (
        <InvoicePanel
          label={t('domains.emails.invoiceFor', { email: email.email })}
          status={email.status as 'unpaid' | 'paying'}
          invoice={email.invoice}
          check={useCheckDomainEmailPayment}
          id={ref}
          paidText={t('domains.emails.paid', { email: email.email })}
        />
      ) : null}

      <div className={page.actions}>
        {active ? (
          <label className={page.check}>
            <input
              type="checkbox"
              checked={email.catch_all}
              disabled={catchAll.isPending}
              aria-label={t('domains.emails.catchAllFor', { email: email.email })}
              onChange={(event) =>
                catchAll.mutate(
                  { ...ref, catchAll: event.target.checked },
                  {
                    onSuccess: (changed) =>
                      raiseSuccess(
                        changed.catch_all
                          ? t('domains.emails.catchAllSet', { email: changed.email, name: domain.name })
                          : t('domains.emails.catchAllUnset', { email: changed.email }),
                      ),
                  },
                )
              }
            />
            {t('domains.emails.catchAll')}
          </label>
        ) : null}
        <span className={page.grow} />
        {active ? (
          <>
            {email.delegate ? (
              <Button
                variant="ghost"
                onClick={() =>
                  delegate.mutate(
                    { ...ref, memberId: null },
                    {
                      onSuccess: () => raiseSuccess(t('domains.emails.undelegated', { email: email.email })),
                    },
                  )
                }
                disabled={delegate.isPending}
                aria-label={t('domains.emails.undelegateFor', { email: email.email })}
              >
                <UserX aria-hidden />
                {t('domains.emails.undelegate')}
              </Button>
            ) : (
              <Button
                variant="ghost"
                aria-expanded={panel === 'delegate'}
                aria-label={t('domains.emails.delegateFor', { email: email.email })}
                onClick={() => toggle('delegate')}
              >
                <UserPlus aria-hidden />
                {t('domains.emails.delegate')}
              </Button>
            )}
            <Button
              variant="ghost"
              aria-expanded={panel === 'access'}
              aria-label={t('domains.emails.accessFor', { email: email.email })}
              onClick={() => toggle('access')}
            >
              <Lock aria-hidden />
              {t('domains.emails.access')}
            </Button>
          </>
        ) : null}
        {payable ? null : (
          <Button
            variant="ghost"
            aria-label={t('domains.emails.removeFor', { email: email.email })}
            onClick={() => setRemoving(true)}
          >
            <Trash2 aria-hidden />
            {t('domains.emails.remove')}
          </Button>
        )}
      </div>

      {panel === 'delegate' && active && !email.delegate ? (
        <DelegateForm email={email} domainId={domain.id} onDone={() => setPanel(null)} />
      ) : null}
      {panel === 'access' && active ? (
        <EmailAccessForm email={email} domainId={domain.id} onDone={() => setPanel(null)} />
      ) : null}

      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={t('domains.emails.removeTitle', { email: email.email })}
        text={t('domains.emails.removeText', { email: email.email })}
        confirmLabel={t('domains.emails.remove')}
        danger
        onConfirm={async () => {
          await remove.mutateAsync(ref);
          raiseSuccess(t('domains.emails.removed', { email: email.email }));
          setRemoving(false);
        }}
        onError={() => {}}
      />
    </li>
  );
}

/** Delegation to another member by member ID: they read and send as this address, and nothing else of yours. */
function DelegateForm({ email, domainId, onDone }: { email: DomainEmail; domainId: number; onDone(): void }) {
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
      className={styles.panel}
      onSubmit={submit}
      noValidate
      aria-busy={delegate.isPending}
      aria-label={t('domains.emails.delegateFor', { email: email.email })}
    >
      <p className={page.hint}>{t('domains.emails.delegateHint', { email: email.email })}</p>
      <div className={styles.inline}>
        <div className={page.field}>
          <label htmlFor={`${id}-member`}>{t('domains.emails.memberId')}</label>
          <input
            id={`${id}-member`}
            value={memberId}
            inputMode="numeric"
            autoComplete="off"
            maxLength={20}
            placeholder="000000000000"
            aria-invalid={errorText ? true : undefined}
            onChange={(event) => {
              setMemberId(event.target.value);
              delegate.reset();
            }}
          />
        </div>
        <Button onClick={onDone}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" disabled={!MEMBER_ID.test(typed) || delegate.isPending}>
          {t('domains.emails.delegate')}
        </Button>
      </div>
      {errorText ? (
        <p className={page.error} role="alert">
          {errorText}
        </p>
      ) : null}
    </form>
  );
}

/**
 * Password access for one address (PUT …/access): whoever has the password signs in as the address-only user
 * (SPEC §6). Typed twice, must match, before it is sent; removing it ends their sessions.
 */
function EmailAccessForm({
  email,
  domainId,
  onDone,
}: {
  email: DomainEmail;
  domainId: number;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const update = useDomainEmailAccess();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const errorText = useErrorText(update.error ?? (problem ? refusal(problem) : null));
  const ref = { domainId, emailId: email.id };

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = passwordPairProblem(password, confirm);
    setProblem(found);
    update.reset();
    if (found) return;
    update.mutate(
      { ...ref, access: { password, password_confirm: confirm } },
      {
        onSuccess: () => {
          raiseSuccess(t('domains.emails.accessSet', { email: email.email }));
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
      aria-label={t('domains.emails.accessFor', { email: email.email })}
    >
      <p className={page.hint}>
        {email.password_access
          ? t('domains.emails.accessOnHint')
          : t('domains.emails.accessHint', { email: email.email })}
      </p>
      <div className={styles.passwords}>
        <div className={page.field}>
          <label htmlFor={`${id}-password`}>{t('domains.emails.password')}</label>
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
          <label htmlFor={`${id}-confirm`}>{t('domains.emails.passwordConfirm')}</label>
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
      <span className={page.fieldHint}>{t('domains.emails.passwordHint', { min: PASSWORD_MIN_LENGTH })}</span>
      {errorText ? (
        <p className={page.error} role="alert">
          {errorText}
        </p>
      ) : null}
      <div className={page.actions}>
        {email.password_access ? (
          <Button variant="ghost" onClick={() => setRemoving(true)} disabled={update.isPending}>
            {t('domains.emails.accessRemove')}
          </Button>
        ) : null}
        <span className={page.grow} />
        <Button onClick={onDone}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" disabled={update.isPending}>
          {email.password_access ? t('domains.emails.accessChange') : t('domains.emails.accessGrant')}
        </Button>
      </div>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={t('domains.emails.accessRemoveTitle', { email: email.email })}
        text={t('domains.emails.accessRemoveText')}
        confirmLabel={t('domains.emails.accessRemove')}
        danger
        onConfirm={async () => {
          await update.mutateAsync({ ...ref, access: { password: null } });
          raiseSuccess(t('domains.emails.accessRemoved', { email: email.email }));
          onDone();
        }}
        onError={() => {}}
      />
    </form>
  );
}
