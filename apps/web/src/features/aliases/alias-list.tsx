import { useId, useState } from 'react';
import clsx from 'clsx';
import { ExternalLink, Lock, Mail, Plus, RotateCw, Trash2, X } from 'lucide-react';
import type { AliasStatus } from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation, type TextKey } from '../../i18n';
import { Link } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { AliasAccessForm } from './alias-access';
import { newAliasPath } from './paths';
import { useAliasRows, useCheckPayment, useDeleteAlias, type AliasRow } from './queries';
import styles from './aliases.module.css';

const statusText: Record<AliasStatus, TextKey> = {
  succeed: 'aliases.status.succeed',
  unpaid: 'aliases.status.unpaid',
  paying: 'aliases.status.paying',
  failed: 'aliases.status.failed',
};

/** settings/aliases: every alias of the account with its kind and status, and what can be done with each. */
export function AliasListPage() {
  const { t } = useTranslation();
  const id = useId();
  const { rows, freeAvailable, isPending, isError, retry } = useAliasRows();
  const [removing, setRemoving] = useState<AliasRow | null>(null);
  const remove = useDeleteAlias();
  const givingUp = removing !== null && removing.status !== 'succeed';

  return (
    <section className={page.page} aria-labelledby={`${id}-title`}>
      <header className={page.header}>
        <h2 id={`${id}-title`} className={page.title}>
          {t('aliases.title')}
        </h2>
        <span className={page.grow} />
        <Link to={newAliasPath} className={buttonClass('primary')}>
          <Plus aria-hidden />
          {t('aliases.create')}
        </Link>
      </header>
      <p className={page.hint}>{freeAvailable ? t('aliases.introFree') : t('aliases.intro')}</p>

      {isPending ? (
        <div className={page.skeleton} aria-hidden>
          <span />
          <span />
        </div>
      ) : isError ? (
        <div className={page.state} role="alert">
          <Mail aria-hidden />
          <p>{t('aliases.loadFailed')}</p>
          <Button onClick={retry}>{t('aliases.retry')}</Button>
        </div>
      ) : rows && rows.length > 0 ? (
        <ul className={page.list} aria-label={t('aliases.listLabel')}>
          {rows.map((row) => (
            <AliasItem key={row.id} row={row} onRemove={() => setRemoving(row)} />
          ))}
        </ul>
      ) : (
        <div className={page.state}>
          <Mail aria-hidden />
          <p>{t('aliases.empty')}</p>
        </div>
      )}

      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={
          givingUp
            ? t('aliases.giveUpTitle', { email: removing.email })
            : t('aliases.removeTitle', { email: removing?.email ?? '' })
        }
        text={
          givingUp
            ? t('aliases.giveUpText')
            : t(removing?.password_access ? 'aliases.removeTextAccess' : 'aliases.removeText', {
                email: removing?.email ?? '',
              })
        }
        confirmLabel={givingUp ? t('aliases.giveUp') : t('aliases.remove')}
        danger
        onConfirm={async () => {
          const alias = removing!;
          await remove.mutateAsync({ id: alias.id, paid: alias.kind === 'paid' });
          raiseSuccess(
            alias.status === 'succeed'
              ? t('aliases.removed', { email: alias.email })
              : t('aliases.givenUp', { email: alias.email }),
          );
          setRemoving(null);
        }}
        onError={() => {}}
      />
    </section>
  );
}

function AliasItem({ row, onRemove }: { row: AliasRow; onRemove(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const [accessOpen, setAccessOpen] = useState(false);
  const check = useCheckPayment();
  // 'Not paid yet' and 'rejected' are the wallet's answers, shown beside the alias; anything else is an error.
  const answer = check.error instanceof ApiError ? check.error.code : null;
  const isAnswer = answer === 'pay_invoice' || answer === 'pay_invoice_cancel';
  const checkText = useErrorText(check.error);

  function checkPayment() {
    check.mutate(row.id, {
      onSuccess: (alias) => {
        if (alias.status === 'succeed') raiseSuccess(t('aliases.paid', { email: alias.email }));
      },
    });
  }

  const invoice = row.invoice;
  return (
    <li className={styles.row} aria-labelledby={`${id}-email`}>
      <div className={styles.rowTop}>
        <span className={page.itemMain}>
          <span id={`${id}-email`} className={page.itemName}>
            {row.email}
          </span>
          <span className={page.itemSub}>
            {row.kind === 'free' ? t('aliases.kindFree') : t('aliases.kindPaid')}
            {row.password_access ? ` · ${t('aliases.passwordOn')}` : ''}
          </span>
        </span>
        <span className={clsx(styles.status, styles[row.status])}>{t(statusText[row.status])}</span>
        <span className={page.itemActions}>
          {row.status === 'succeed' ? (
            <Button
              variant="ghost"
              iconOnly
              aria-label={t('aliases.accessFor', { email: row.email })}
              title={t('aliases.access')}
              aria-expanded={accessOpen}
              onClick={() => setAccessOpen((open) => !open)}
            >
              <Lock aria-hidden />
            </Button>
          ) : null}
          {row.status === 'succeed' ? (
            <Button
              variant="ghost"
              iconOnly
              aria-label={t('aliases.removeFor', { email: row.email })}
              title={t('aliases.remove')}
              onClick={onRemove}
            >
              <Trash2 aria-hidden />
            </Button>
          ) : null}
        </span>
      </div>

      {row.status === 'unpaid' ? (
        <div className={styles.panel} aria-label={t('aliases.invoiceFor', { email: row.email })} role="group">
          {invoice ? (
            <p className={styles.invoice}>
              {t('aliases.invoice')}{' '}
              <strong className={styles.amount}>
                {invoice.amount} {invoice.currency}
              </strong>
            </p>
          ) : null}
          <p className={page.hint}>{t('aliases.unpaidHint')}</p>
          <div className={page.actions}>
            {invoice?.pay_url ? (
              <a href={invoice.pay_url} target="_blank" rel="noopener" className={buttonClass('primary')}>
                <ExternalLink aria-hidden />
                {t('aliases.payInWallet')}
              </a>
            ) : null}
            <Button onClick={checkPayment} disabled={check.isPending}>
              {t('aliases.alreadyPaid')}
            </Button>
            <Button variant="ghost" onClick={onRemove}>
              <X aria-hidden />
              {t('aliases.giveUp')}
            </Button>
          </div>
        </div>
      ) : null}

      {row.status === 'paying' ? (
        <div className={styles.panel}>
          <p className={page.hint}>{t('aliases.payingHint')}</p>
          <div className={page.actions}>
            <Button onClick={checkPayment} disabled={check.isPending}>
              <RotateCw aria-hidden />
              {t('aliases.checkAgain')}
            </Button>
          </div>
        </div>
      ) : null}

      {row.status === 'failed' ? (
        <div className={styles.panel}>
          <p className={page.hint}>{t('aliases.failedHint')}</p>
          <div className={page.actions}>
            <Button variant="ghost" onClick={onRemove}>
              <X aria-hidden />
              {t('aliases.giveUp')}
            </Button>
          </div>
        </div>
      ) : null}

      {checkText ? (
        <p
          className={clsx(styles.answer, !isAnswer && page.error)}
          role={isAnswer ? 'status' : 'alert'}
          data-answer={answer ?? undefined}
        >
          {checkText}
        </p>
      ) : null}

      {accessOpen && row.status === 'succeed' ? (
        <AliasAccessForm alias={row} onDone={() => setAccessOpen(false)} />
      ) : null}
    </li>
  );
}
