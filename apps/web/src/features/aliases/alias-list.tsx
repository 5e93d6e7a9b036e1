import { useId, useState } from 'react';
import clsx from 'clsx';
import { Lock, Mail, Trash2, X } from 'lucide-react';
import type { AliasStatus } from '@mailroom/protocol';
import { useErrorAnswer } from '../../api/error-answer';
import { useTranslation, type TextKey } from '../../i18n';
import { Button } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { InvoicePanel } from '../../ui/invoice-panel';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { AliasAccessForm } from './alias-access';
import { newAliasPath } from './paths';
import { useAliasRows, useCheckPayment, useDeleteAlias, type AliasRow } from './queries';
import rowStyles from '../../ui/address-rows.module.css';
import { SettingsLoadedList } from '../../ui/settings-list';
import { SettingsPage } from '../../ui/settings-editor-header';

const hintText: Record<Exclude<AliasStatus, 'succeed'>, TextKey> = {
  unpaid: 'aliases.unpaidHint',
  paying: 'aliases.payingHint',
  failed: 'aliases.failedHint',
};

const statusText: Record<AliasStatus, TextKey> = {
  succeed: 'aliases.status.succeed',
  unpaid: 'aliases.status.unpaid',
  paying: 'aliases.status.paying',
  failed: 'aliases.status.failed',
};

/** settings/aliases: every alias of the account with its kind and status, and what can be done with each. */
export function AliasListPage() {
  const { t } = useTranslation();
  const { rows, freeAvailable, isPending, isError, retry } = useAliasRows();
  const [removing, setRemoving] = useState<AliasRow | null>(null);
  const remove = useDeleteAlias();
  const givingUp = removing !== null && removing.status !== 'succeed';

  return (
    <SettingsPage title={t('aliases.title')} create={{ to: newAliasPath, label: t('aliases.create') }}>
      <p className={page.hint}>{freeAvailable ? t('aliases.introFree') : t('aliases.intro')}</p>

      <SettingsLoadedList
        query={{ data: rows, isPending, isError, refetch: retry }}
        texts="aliases"
        icon={<Mail aria-hidden />}
      >
        {(row) => <AliasItem key={row.id} row={row} onRemove={() => setRemoving(row)} />}
      </SettingsLoadedList>

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
            : [
                t(removing?.password_access ? 'aliases.removeTextAccess' : 'aliases.removeText', {
                  email: removing?.email ?? '',
                }),
                removing?.kind === 'paid' ? t('aliases.paidNotRefunded') : null,
              ]
                .filter(Boolean)
                .join(' ')
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
    </SettingsPage>
  );
}

function AliasItem({ row, onRemove }: { row: AliasRow; onRemove(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const [accessOpen, setAccessOpen] = useState(false);
  const check = useCheckPayment();
  const answer = useErrorAnswer(check.error);

  function checkPayment() {
    check.mutate(row.id, {
      onSuccess: (alias) => {
        if (alias.status === 'succeed') raiseSuccess(t('aliases.paid', { email: alias.email }));
      },
    });
  }

  return (
    <li className={rowStyles.row} aria-labelledby={`${id}-email`}>
      <div className={rowStyles.rowTop}>
        <span className={page.itemMain}>
          <span id={`${id}-email`} className={page.itemName}>
            {row.email}
          </span>
          <span className={page.itemSub}>
            {row.kind === 'free' ? t('aliases.kindFree') : t('aliases.kindPaid')}
            {row.password_access ? ` · ${t('aliases.passwordOn')}` : ''}
          </span>
        </span>
        <span className={clsx(rowStyles.status, rowStyles[row.status])}>{t(statusText[row.status])}</span>
        <span className={page.itemActions}>
          {row.status === 'succeed' ? (
            <IconButton
              label={t('aliases.accessFor', { email: row.email })}
              tooltip={t('aliases.access')}
              aria-expanded={accessOpen}
              onClick={() => setAccessOpen((open) => !open)}
            >
              <Lock aria-hidden />
            </IconButton>
          ) : null}
          {row.status === 'succeed' ? (
            <IconButton
              label={t('aliases.removeFor', { email: row.email })}
              tooltip={t('aliases.remove')}
              onClick={onRemove}
            >
              <Trash2 aria-hidden />
            </IconButton>
          ) : null}
        </span>
      </div>

      {row.status !== 'succeed' ? (
        <InvoicePanel
          label={t('aliases.invoiceFor', { email: row.email })}
          status={row.status}
          invoice={row.invoice}
          hint={t(hintText[row.status])}
          pending={check.isPending}
          onCheck={checkPayment}
          check={answer}
        >
          {row.status === 'paying' ? null : (
            <Button variant="ghost" onClick={onRemove}>
              <X aria-hidden />
              {t('aliases.giveUp')}
            </Button>
          )}
        </InvoicePanel>
      ) : null}

      {accessOpen && row.status === 'succeed' ? (
        <AliasAccessForm alias={row} onDone={() => setAccessOpen(false)} />
      ) : null}
    </li>
  );
}
