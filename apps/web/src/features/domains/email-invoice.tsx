import type { ReactNode } from 'react';
import type { DomainEmail } from '@mailroom/protocol';
import { useErrorAnswer } from '../../api/error-answer';
import { useTranslation, type TextKey } from '../../i18n';
import { InvoicePanel } from '../../ui/invoice-panel';
import { raiseSuccess } from '../../ui/notices-store';
import { useCheckDomainEmailPayment } from './queries';
import { isSettled } from './texts';

const hintText: Record<'unpaid' | 'paying' | 'failed', TextKey> = {
  unpaid: 'domains.emails.unpaidHint',
  paying: 'domains.emails.payingHint',
  failed: 'domains.emails.failedHint',
};

/**
 * The invoice of a paid address on a domain (one beyond the free number on an own domain, any on a public one) while
 * it is unpaid, being paid, or failed: pay it in the wallet, then 'I have already paid'. `children`: what else the row offers
 * (give it up).
 */
export function EmailInvoice({ email, children }: { email: DomainEmail; children?: ReactNode }) {
  const { t } = useTranslation();
  const check = useCheckDomainEmailPayment();
  const answer = useErrorAnswer(check.error);
  return (
    <InvoicePanel
      label={t('domains.emails.invoiceFor', { email: email.email })}
      status={email.status as 'unpaid' | 'paying' | 'failed'}
      invoice={email.invoice}
      hint={t(hintText[email.status as 'unpaid' | 'paying' | 'failed'])}
      pending={check.isPending}
      onCheck={() =>
        check.mutate(
          { domainId: email.domain_id, emailId: email.id },
          {
            onSuccess: (paid) => {
              if (isSettled(paid.status)) raiseSuccess(t('domains.emails.paid', { email: paid.email }));
            },
          },
        )
      }
      check={answer}
    >
      {children}
    </InvoicePanel>
  );
}
