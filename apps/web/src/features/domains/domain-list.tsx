import { useId } from 'react';
import clsx from 'clsx';
import { ExternalLink, Globe, KeyRound, Mail, Plus, RotateCw, BadgeCheck, Trash2 } from 'lucide-react';
import type { Domain, Invoice } from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { confirmDomainPath, dkimPath, domainEmailsPath, newDomainPath, removeDomainPath } from './paths';
import { useCheckDomainPayment, useDomains } from './queries';
import { domainStatusText, failureText } from './texts';
import styles from './domains.module.css';

/** settings/domains/list: the account's domains with their status in words, and where to go for each. */
export function DomainListPage() {
  const { t } = useTranslation();
  const id = useId();
  const domains = useDomains();
  return (
    <section className={page.page} aria-labelledby={`${id}-title`}>
      <header className={page.header}>
        <h2 id={`${id}-title`} className={page.title}>
          {t('domains.title')}
        </h2>
        <span className={page.grow} />
        <Link to={newDomainPath} className={buttonClass('primary')}>
          <Plus aria-hidden />
          {t('domains.create')}
        </Link>
      </header>
      <p className={page.hint}>{t('domains.intro')}</p>
      {domains.isPending ? (
        <div className={page.skeleton} aria-hidden>
          <span />
          <span />
        </div>
      ) : domains.isError && !domains.data ? (
        <div className={page.state} role="alert">
          <Globe aria-hidden />
          <p>{t('domains.loadFailed')}</p>
          <Button onClick={() => void domains.refetch()}>{t('domains.retry')}</Button>
        </div>
      ) : domains.data.length > 0 ? (
        <ul className={page.list} aria-label={t('domains.listLabel')}>
          {domains.data.map((domain) => (
            <DomainItem key={domain.id} domain={domain} />
          ))}
        </ul>
      ) : (
        <div className={page.state}>
          <Globe aria-hidden />
          <p>{t('domains.empty')}</p>
        </div>
      )}
    </section>
  );
}

function DomainItem({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  const id = useId();
  const failure = domain.status === 'failed' ? failureText(t, domain) : null;
  const payable = domain.status === 'unpaid' || domain.status === 'paying';
  const idn = domain.display_name !== domain.name;
  return (
    <li className={styles.row} aria-labelledby={`${id}-name`}>
      <div className={styles.rowTop}>
        <span className={page.itemMain}>
          <span id={`${id}-name`} className={page.itemName}>
            {domain.display_name}
          </span>
          <span className={page.itemSub}>
            {idn ? `${domain.name} · ` : ''}
            {t('domains.emailsCount', { count: domain.emails_count })}
          </span>
        </span>
        <span className={clsx(styles.status, styles[domain.status])}>
          {t(domainStatusText[domain.status])}
        </span>
      </div>
      <div className={page.actions}>
        {payable ? null : (
          <Link
            to={confirmDomainPath(domain.id)}
            className={buttonClass('ghost')}
            aria-label={
              domain.status === 'succeed'
                ? t('domains.dnsFor', { name: domain.display_name })
                : t('domains.verifyFor', { name: domain.display_name })
            }
          >
            <BadgeCheck aria-hidden />
            {domain.status === 'succeed' ? t('domains.dnsLink') : t('domains.verify')}
          </Link>
        )}
        {domain.status === 'succeed' ? (
          <>
            <Link
              to={domainEmailsPath(domain.id)}
              className={buttonClass('ghost')}
              aria-label={t('domains.emailsFor', { name: domain.display_name })}
            >
              <Mail aria-hidden />
              {t('domains.emails.title')}
            </Link>
            <Link
              to={dkimPath(domain.id)}
              className={buttonClass('ghost')}
              aria-label={t('domains.dkimFor', { name: domain.display_name })}
            >
              <KeyRound aria-hidden />
              {t('domains.dkim.title')}
            </Link>
          </>
        ) : null}
        <Link
          to={removeDomainPath(domain.id)}
          className={buttonClass('ghost')}
          aria-label={t('domains.removeFor', { name: domain.display_name })}
        >
          <Trash2 aria-hidden />
          {t('domains.remove.button')}
        </Link>
      </div>
      {failure ? (
        <p className={page.error} role="note">
          {failure}
        </p>
      ) : null}
      {domain.status === 'prepared' ? <p className={page.hint}>{t('domains.preparedHint')}</p> : null}
      {payable ? (
        <InvoicePanel
          label={t('domains.invoiceFor', { name: domain.display_name })}
          status={domain.status as 'unpaid' | 'paying'}
          invoice={domain.invoice}
          check={useCheckDomainPayment}
          id={domain.id}
          paidText={t('domains.paid', { name: domain.display_name })}
        />
      ) : null}
    </li>
  );
}

/**
 * A paid domain's or address's invoice, as paid aliases show theirs: the amount, a link to pay it in the wallet, and
 * 'I have already paid'. The wallet's "not paid yet" and "rejected" are answers shown here, not failures of the page.
 */
export function InvoicePanel<V>({
  label,
  status,
  invoice,
  check,
  id,
  paidText,
}: {
  label: string;
  status: 'unpaid' | 'paying';
  invoice: Invoice | null;
  check: () => {
    mutate(variables: V, options: { onSuccess(result: { status: string }): void }): void;
    isPending: boolean;
    error: unknown;
  };
  id: V;
  paidText: string;
}) {
  const { t } = useTranslation();
  const checking = check();
  const answer = checking.error instanceof ApiError ? checking.error.code : null;
  const isAnswer = answer === 'pay_invoice' || answer === 'pay_invoice_cancel';
  const checkText = useErrorText(checking.error);
  const checkPayment = () =>
    checking.mutate(id, {
      onSuccess: (result) => {
        if (result.status === 'succeed') raiseSuccess(paidText);
      },
    });
  return (
    <div className={styles.panel} role="group" aria-label={label}>
      {status === 'unpaid' ? (
        <>
          {invoice ? (
            <p>
              {t('domains.invoice')}{' '}
              <strong className={styles.amount}>
                {invoice.amount} {invoice.currency}
              </strong>
            </p>
          ) : null}
          <p className={page.hint}>{t('domains.unpaidHint')}</p>
          <div className={page.actions}>
            {invoice?.pay_url ? (
              <a href={invoice.pay_url} target="_blank" rel="noopener" className={buttonClass('primary')}>
                <ExternalLink aria-hidden />
                {t('domains.payInWallet')}
              </a>
            ) : null}
            <Button onClick={checkPayment} disabled={checking.isPending}>
              {t('domains.alreadyPaid')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className={page.hint}>{t('domains.payingHint')}</p>
          <div className={page.actions}>
            <Button onClick={checkPayment} disabled={checking.isPending}>
              <RotateCw aria-hidden />
              {t('domains.checkAgain')}
            </Button>
          </div>
        </>
      )}
      {checkText ? (
        <p className={clsx(styles.answer, !isAnswer && page.error)} role={isAnswer ? 'status' : 'alert'}>
          {checkText}
        </p>
      ) : null}
    </div>
  );
}
