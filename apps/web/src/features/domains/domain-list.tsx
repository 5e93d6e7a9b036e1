import { useId, type ReactNode } from 'react';
import clsx from 'clsx';
import { Globe, KeyRound, Mail, BadgeCheck, Trash2 } from 'lucide-react';
import type { Domain } from '@mailroom/protocol';
import { useErrorAnswer } from '../../api/error-answer';
import { useTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import { buttonClass } from '../../ui/button';
import rowStyles from '../../ui/address-rows.module.css';
import { InvoicePanel } from '../../ui/invoice-panel';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { confirmDomainPath, dkimPath, domainEmailsPath, newDomainPath, removeDomainPath } from './paths';
import { useCheckDomainPayment, useDomains } from './queries';
import { PublicAddresses } from './public-addresses';
import { domainStatusText, failureText, isSettled } from './texts';
import { SettingsLoadedList } from '../../ui/settings-list';
import { SettingsPage } from '../../ui/settings-editor-header';

/** settings/domains/list: the account's domains with their status in words, and where to go for each. */
export function DomainListPage() {
  const { t } = useTranslation();
  const domains = useDomains();
  return (
    <SettingsPage title={t('domains.title')} create={{ to: newDomainPath, label: t('domains.create') }}>
      <p className={page.hint}>{t('domains.intro')}</p>
      <SettingsLoadedList query={domains} texts="domains" icon={<Globe aria-hidden />}>
        {(domain) => <DomainItem key={domain.id} domain={domain} />}
      </SettingsLoadedList>
      <PublicAddresses />
    </SettingsPage>
  );
}

function DomainItem({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  const id = useId();
  const failure = domain.status === 'failed' ? failureText(t, domain) : null;
  const payable = domain.status === 'unpaid' || domain.status === 'paying';
  const check = useCheckDomainPayment();
  const answer = useErrorAnswer(check.error);
  const idn = domain.display_name !== domain.name;
  const name = domain.display_name;
  return (
    <li className={rowStyles.row} aria-labelledby={`${id}-name`}>
      <div className={rowStyles.rowTop}>
        <span className={page.itemMain}>
          <span id={`${id}-name`} className={page.itemName}>
            {domain.display_name}
          </span>
          <span className={page.itemSub}>
            {idn ? `${domain.name} · ` : ''}
            {t('domains.emailsCount', { count: domain.emails_count })}
          </span>
        </span>
        <span className={clsx(rowStyles.status, rowStyles[domain.status])}>
          {t(domainStatusText[domain.status])}
        </span>
      </div>
      <div className={page.actions}>
        {payable ? null : (
          <ActionLink
            to={confirmDomainPath(domain.id)}
            label={t(domain.status === 'succeed' ? 'domains.dnsFor' : 'domains.verifyFor', { name })}
            icon={<BadgeCheck aria-hidden />}
            text={domain.status === 'succeed' ? t('domains.dnsLink') : t('domains.verify')}
          />
        )}
        {domain.status === 'succeed' ? (
          <>
            <ActionLink
              to={domainEmailsPath(domain.id)}
              label={t('domains.emailsFor', { name })}
              icon={<Mail aria-hidden />}
              text={t('domains.emails.title')}
            />
            <ActionLink
              to={dkimPath(domain.id)}
              label={t('domains.dkimFor', { name })}
              icon={<KeyRound aria-hidden />}
              text={t('domains.dkim.title')}
            />
          </>
        ) : null}
        <ActionLink
          to={removeDomainPath(domain.id)}
          label={t('domains.removeFor', { name })}
          icon={<Trash2 aria-hidden />}
          text={t('domains.remove.button')}
        />
      </div>
      {failure ? (
        <p className={page.error} role="note">
          {failure}
        </p>
      ) : null}
      {domain.status === 'prepared' ? <p className={page.hint}>{t('domains.preparedHint')}</p> : null}
      {payable ? (
        <InvoicePanel
          label={t('domains.invoiceFor', { name })}
          status={domain.status as 'unpaid' | 'paying'}
          invoice={domain.invoice}
          hint={domain.status === 'unpaid' ? t('domains.unpaidHint') : t('domains.payingHint')}
          pending={check.isPending}
          onCheck={() =>
            check.mutate(domain.id, {
              onSuccess: (paid) => {
                if (isSettled(paid.status)) raiseSuccess(t('domains.paid', { name: domain.display_name }));
              },
            })
          }
          check={answer}
        />
      ) : null}
    </li>
  );
}

/** One of a domain's actions: a ghost link with its icon and short text, named in full for the domain. */
function ActionLink({ to, label, icon, text }: { to: string; label: string; icon: ReactNode; text: string }) {
  return (
    <Link to={to} className={buttonClass('ghost')} aria-label={label}>
      {icon}
      {text}
    </Link>
  );
}
