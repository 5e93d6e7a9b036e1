import { formatFullDate } from '@mailroom/protocol';
import { useState } from 'react';
import clsx from 'clsx';
import { RefreshCcw } from 'lucide-react';
import type { DomainDkimKey } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { FormActions } from '../../ui/form-parts';
import { CopyButton, CopyValue } from './copy-button';
import { DomainPage } from './domain-page';
import { useDomainDetail, useRotateDkim } from './queries';
import rowStyles from '../../ui/address-rows.module.css';
import styles from './domains.module.css';
import { TxtRecord } from './txt-record';

/** A TXT value as a zone file writes it: each string of at most 255 characters quoted, side by side. */
export const zoneStrings = (strings: readonly string[]) => strings.map((part) => `"${part}"`).join(' ');

/**
 * settings/domains/dkim/{id}: the domain's DKIM keys (RSA-2048 and Ed25519, on dated selectors), each TXT record to
 * publish with its value split into strings of at most 255 characters, and a rotation (the new keys are published
 * first, the old ones kept for a grace period).
 */
export function DomainDkimPage({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const detail = useDomainDetail(id);
  const rotate = useRotateDkim();
  const [rotating, setRotating] = useState(false);
  const date = (iso: string) => formatFullDate(iso, new Date(), i18n.language);
  const name = detail.data?.domain.display_name ?? '';
  return (
    <DomainPage title={t('domains.dkim.pageTitle', { name })} query={detail}>
      {detail.data ? (
        <>
          <p className={page.hint}>{t('domains.dkim.intro')}</p>
          {detail.data.dkim.length === 0 ? (
            <p className={page.muted}>{t('domains.dkim.none')}</p>
          ) : (
            <ul className={styles.keys} aria-label={t('domains.dkim.keys')}>
              {detail.data.dkim.map((key) => (
                <DkimKey key={`${key.selector}-${key.algorithm}`} dkimKey={key} date={date} />
              ))}
            </ul>
          )}
          <FormActions start={<p className={page.hint}>{t('domains.dkim.rotateHint')}</p>}>
            <Button onClick={() => setRotating(true)} disabled={rotate.isPending}>
              <RefreshCcw aria-hidden />
              {t('domains.dkim.rotate')}
            </Button>
          </FormActions>
          <ConfirmDialog
            open={rotating}
            onOpenChange={setRotating}
            title={t('domains.dkim.rotateTitle', { name })}
            text={t('domains.dkim.rotateText')}
            confirmLabel={t('domains.dkim.rotate')}
            onConfirm={async () => {
              await rotate.mutateAsync(id);
              raiseSuccess(t('domains.dkim.rotated', { name }));
              setRotating(false);
            }}
            onError={() => {}}
          />
        </>
      ) : null}
    </DomainPage>
  );
}

function DkimKey({ dkimKey, date }: { dkimKey: DomainDkimKey; date(iso: string): string }) {
  const { t } = useTranslation();
  const label = `${dkimKey.selector} · ${t(`domains.dkim.algorithms.${dkimKey.algorithm}`)}`;
  return (
    <li className={styles.key} aria-label={label}>
      <div className={rowStyles.rowTop}>
        <span className={page.itemMain}>
          <span className={page.itemName}>{label}</span>
          <span className={page.itemSub}>
            {t('domains.dkim.created', { date: date(dkimKey.created_at) })}
            {dkimKey.retire_at ? ` · ${t('domains.dkim.retires', { date: date(dkimKey.retire_at) })}` : ''}
          </span>
        </span>
        <span
          className={clsx(
            rowStyles.status,
            dkimKey.state === 'active'
              ? rowStyles.succeed
              : dkimKey.state === 'next'
                ? rowStyles.waiting
                : rowStyles.unpaid,
          )}
        >
          {t(`domains.dkim.states.${dkimKey.state}`)}
        </span>
      </div>
      <p className={page.hint}>{t(`domains.dkim.stateHints.${dkimKey.state}`)}</p>
      <TxtRecord
        name={
          <CopyValue
            value={dkimKey.dns_name}
            label={t('domains.dkim.copyName', { selector: dkimKey.selector })}
          />
        }
        value={
          <>
            <ol className={styles.strings} aria-label={t('domains.dkim.strings')}>
              {dkimKey.dns_value.map((part, index) => (
                <li key={index}>
                  <CopyValue
                    value={part}
                    label={t('domains.dkim.copyString', { n: index + 1, count: dkimKey.dns_value.length })}
                  />
                </li>
              ))}
            </ol>
            {dkimKey.dns_value.length > 1 ? (
              <CopyButton
                text={zoneStrings(dkimKey.dns_value)}
                label={t('domains.dkim.copyValue', { selector: dkimKey.selector })}
                visible={t('domains.dkim.copyAll')}
              />
            ) : null}
          </>
        }
      />
    </li>
  );
}
