import { useId, useState, type FormEvent } from 'react';
import clsx from 'clsx';
import { CheckCircle2, Lock, Plus, Trash2, UserX, UserPlus, X } from 'lucide-react';
import { validateAliasName, type Domain, type DomainEmail, formatFullDate } from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import rowStyles from '../../ui/address-rows.module.css';
import { raiseSuccess } from '../../ui/notices-store';
import { LocalPartField, useLocalPart } from '../../ui/local-part-field';
import page from '../../ui/settings-page.module.css';
import { DomainPage, notFound } from './domain-page';
import { EmailInvoice } from './email-invoice';
import { confirmDomainPath } from './paths';
import {
  useConfirmDomainEmail,
  useCreateDomainEmail,
  useDelegateDomainEmail,
  useDeleteDomainEmail,
  useDomainEmails,
  useDomains,
  useSetCatchAll,
} from './queries';
import { emailStatusText } from './texts';
import { SettingsList, SettingsSkeleton, SettingsState } from '../../ui/settings-list';
import { FormActions } from '../../ui/form-parts';
import { DelegateForm, EmailAccessForm } from './email-forms';

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
      <SettingsState>
        <p>{t('domains.emails.notVerified')}</p>
        <Link to={confirmDomainPath(domain.id)}>{t('domains.verify')}</Link>
      </SettingsState>
    );

  return (
    <>
      <p className={page.hint}>{t('domains.emails.intro')}</p>
      <CreateEmail domain={domain} onCreated={activate} />
      {emails.data ? (
        emails.data.length > 0 ? (
          <SettingsList aria-label={t('domains.emails.listLabel', { name: domain.display_name })}>
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
          </SettingsList>
        ) : (
          <p className={page.muted}>{t('domains.emails.empty')}</p>
        )
      ) : emails.isError ? (
        <SettingsState role="alert">
          <p>{t('domains.loadFailed')}</p>
          <Button onClick={() => void emails.refetch()}>{t('domains.retry')}</Button>
        </SettingsState>
      ) : (
        <SettingsSkeleton rows={2} aria-hidden />
      )}
    </>
  );
}

/**
 * The alias rules checked as typed, but for the stop list: whether role names (sales@, info@) are refused on an own
 * domain is the server's to say (its refusal then shows beside the name the same way).
 */
function ownDomainNameProblem(name: string): string | null {
  const checked = validateAliasName(name);
  return checked === 'alias_stoplist' ? null : checked;
}

function CreateEmail({ domain, onCreated }: { domain: Domain; onCreated(email: DomainEmail): void }) {
  const { t } = useTranslation();
  const create = useCreateDomainEmail();
  const [catchAll, setCatchAll] = useState(false);
  const local = useLocalPart(ownDomainNameProblem, useErrorText(create.error), create.reset);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!local.attempt()) return;
    create.mutate(
      { domainId: domain.id, name: local.name, catchAll },
      {
        onSuccess: (email) => {
          raiseSuccess(t('domains.emails.created', { email: email.email }));
          local.clear();
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
      <LocalPartField label={t('domains.emails.name')} {...local.field} domain={domain.name} />
      <label className={page.check}>
        <input type="checkbox" checked={catchAll} onChange={(event) => setCatchAll(event.target.checked)} />
        {t('domains.emails.catchAll')}
      </label>
      <span className={page.fieldHint}>{t('domains.emails.catchAllHint', { name: domain.name })}</span>
      <FormActions>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          <Plus aria-hidden />
          {t('domains.emails.create')}
        </Button>
      </FormActions>
    </form>
  );
}

/**
 * One address on a domain as a row: its status, and what it offers — activation (prepared), its invoice with 'I have
 * already paid' and give up (unpaid, paying, failed), catch-all (own domains), delegation, password access, delete.
 * The public addresses' list (public-addresses.tsx) shows its rows with it too.
 */
export function EmailItem({
  email,
  domain,
  ownDomain = true,
  refused,
  activating = false,
  onActivate,
}: {
  email: DomainEmail;
  domain: { id: number; name: string };
  /** An own domain's address may be its catch-all; one on the service's public domains may not. */
  ownDomain?: boolean;
  refused?: unknown;
  activating?: boolean;
  onActivate?(): void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [panel, setPanel] = useState<'access' | 'delegate' | null>(null);
  const [removing, setRemoving] = useState(false);
  const [undelegating, setUndelegating] = useState(false);
  const catchAll = useSetCatchAll();
  const remove = useDeleteDomainEmail();
  const delegate = useDelegateDomainEmail();
  const refusedText = useErrorText(refused ?? null);
  const mxRefused = refused instanceof ApiError && refused.code === 'invalid_domain_for_mail_server';
  const ref = { domainId: domain.id, emailId: email.id };
  const active = email.status === 'succeed';
  const payable = email.status === 'unpaid' || email.status === 'paying' || email.status === 'failed';
  // An address not paid for (yet) is given up: its invoice is cancelled and the name freed.
  const givingUp = email.status === 'unpaid' || email.status === 'failed';
  const toggle = (which: 'access' | 'delegate') => setPanel((open) => (open === which ? null : which));
  const since = formatFullDate(email.created_at, new Date(), i18n.language);

  return (
    <li className={rowStyles.row} aria-labelledby={`${id}-email`}>
      <div className={rowStyles.rowTop}>
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
        <span className={clsx(rowStyles.status, rowStyles[email.status])}>
          {t(emailStatusText[email.status])}
        </span>
      </div>

      {email.status === 'prepared' ? (
        <div className={rowStyles.panel}>
          <p className={page.hint}>{t('domains.emails.preparedHint')}</p>
          {refusedText ? (
            <p className={clsx(rowStyles.answer, !mxRefused && page.error)} role="alert">
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
            <Button variant="primary" onClick={() => onActivate?.()} disabled={activating}>
              <CheckCircle2 aria-hidden />
              {t('domains.emails.activate')}
            </Button>
          </div>
        </div>
      ) : null}

      {payable ? (
        <EmailInvoice email={email}>
          {givingUp ? (
            <Button
              variant="ghost"
              aria-label={t('domains.emails.giveUpFor', { email: email.email })}
              onClick={() => setRemoving(true)}
            >
              <X aria-hidden />
              {t('domains.emails.giveUp')}
            </Button>
          ) : null}
        </EmailInvoice>
      ) : null}

      <div className={page.actions}>
        {active && ownDomain ? (
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
                aria-haspopup="dialog"
                onClick={() => setUndelegating(true)}
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
        open={undelegating}
        onOpenChange={setUndelegating}
        title={t('domains.emails.undelegateTitle', { email: email.email })}
        text={t('domains.emails.undelegateText', {
          email: email.email,
          name: email.delegate?.name || email.delegate?.member_id || '',
        })}
        confirmLabel={t('domains.emails.undelegate')}
        danger
        onConfirm={async () => {
          await delegate.mutateAsync({ ...ref, memberId: null });
          raiseSuccess(t('domains.emails.undelegated', { email: email.email }));
          setUndelegating(false);
        }}
        onError={() => {}}
      />
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={t(givingUp ? 'domains.emails.giveUpTitle' : 'domains.emails.removeTitle', {
          email: email.email,
        })}
        text={t(givingUp ? 'domains.emails.giveUpText' : 'domains.emails.removeText', { email: email.email })}
        confirmLabel={givingUp ? t('domains.emails.giveUp') : t('domains.emails.remove')}
        danger
        onConfirm={async () => {
          await remove.mutateAsync(ref);
          raiseSuccess(
            t(givingUp ? 'domains.emails.givenUp' : 'domains.emails.removed', { email: email.email }),
          );
          setRemoving(false);
        }}
        onError={() => {}}
      />
    </li>
  );
}
