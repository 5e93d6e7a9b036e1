import type { ReactNode } from 'react';
import clsx from 'clsx';
import { ExternalLink, RotateCw } from 'lucide-react';
import type { Invoice } from '@mailroom/protocol';
import { useTranslation } from '../i18n';
import { Button, buttonClass } from './button';
import page from './settings-page.module.css';
import rows from './address-rows.module.css';

/** The wallet's answers to 'I have already paid' that are not failures: not paid yet, rejected or expired. */
const WALLET_ANSWERS = ['pay_invoice', 'pay_invoice_cancel'];

/**
 * What is paid through the wallet (a paid alias, a domain, an address on a domain) while it waits for its invoice:
 * unpaid — the amount, a link to pay it in the wallet, 'I have already paid'; paying — the payment being checked,
 * 'Check again'; failed — why, and what the caller offers (`children`: give it up). The last check's answer (`check`:
 * its catalogue code and its words) shows under it: the wallet's "not paid yet" and "rejected" as answers, anything
 * else as an error.
 */
export function InvoicePanel({
  label,
  status,
  invoice,
  hint,
  pending,
  onCheck,
  check,
  children,
}: {
  label: string;
  status: 'unpaid' | 'paying' | 'failed';
  invoice: Invoice | null;
  /** What the status means for this thing, in a sentence. */
  hint: string;
  pending: boolean;
  onCheck(): void;
  check: { code: string | null; text: string | null };
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const isAnswer = check.code !== null && WALLET_ANSWERS.includes(check.code);
  return (
    <div className={rows.panel} role="group" aria-label={label}>
      {status === 'unpaid' && invoice ? (
        <p>
          {t('invoice.invoice')}{' '}
          <strong className={rows.amount}>
            {invoice.amount} {invoice.currency}
          </strong>
        </p>
      ) : null}
      <p className={page.hint}>{hint}</p>
      <div className={page.actions}>
        {status === 'unpaid' && invoice?.pay_url ? (
          <a href={invoice.pay_url} target="_blank" rel="noopener" className={buttonClass('primary')}>
            <ExternalLink aria-hidden />
            {t('invoice.payInWallet')}
          </a>
        ) : null}
        {status === 'unpaid' ? (
          <Button onClick={onCheck} disabled={pending}>
            {t('invoice.alreadyPaid')}
          </Button>
        ) : null}
        {status === 'paying' ? (
          <Button onClick={onCheck} disabled={pending}>
            <RotateCw aria-hidden />
            {t('invoice.checkAgain')}
          </Button>
        ) : null}
        {children}
      </div>
      {check.text ? (
        <p
          className={clsx(rows.answer, !isAnswer && page.error)}
          role={isAnswer ? 'status' : 'alert'}
          data-answer={check.code ?? undefined}
        >
          {check.text}
        </p>
      ) : null}
    </div>
  );
}
