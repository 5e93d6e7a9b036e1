import { useState } from 'react';
import { ShieldAlert, ShieldCheck, TriangleAlert } from 'lucide-react';
import type { SenderTrust } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import styles from './sender-trust.module.css';

/** The verified mark beside the sender's name: only for a sender whose domain proved itself and imitates no one. */
export function VerifiedMark({ trust }: { trust: SenderTrust | undefined }) {
  const { t } = useTranslation();
  if (!trust || trust.status !== 'verified' || trust.impostor) return null;
  return (
    <span className={styles.verified} title={t('mail.trust.verifiedTitle', { domain: trust.domain })}>
      <ShieldCheck aria-hidden />
      {t('mail.trust.verified')}
    </span>
  );
}

/**
 * What the checks on arrival said, when the reader should be careful (issue 30): an impostor of a protected domain,
 * a sender that could not be verified, where a reply really goes; and the details (SPF, DKIM, DMARC, ARC, the spam
 * score and why the message was filed into Junk) on request.
 */
export function SenderTrustBar({ trust }: { trust: SenderTrust | undefined }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!trust || trust.status === 'unknown') return null;
  const { impostor } = trust;
  const warning = impostor
    ? t(`mail.trust.impostor.${impostor.reason}`, { domain: trust.domain, imitates: impostor.imitates })
    : trust.status === 'unverified'
      ? t('mail.trust.unverified', { domain: trust.domain })
      : null;
  const junk = trust.junk_reason ? t(`mail.trust.junk.${trust.junk_reason}`) : null;
  const details = (
    <>
      <button type="button" className={styles.more} aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? t('mail.trust.hideDetails') : t('mail.trust.details')}
      </button>
      {open ? (
        <dl className={styles.details}>
          {trust.results ? (
            <>
              <dt>SPF</dt>
              <dd>{trust.results.spf}</dd>
              <dt>DKIM</dt>
              <dd>{trust.results.dkim}</dd>
              <dt>DMARC</dt>
              <dd>{trust.results.dmarc}</dd>
              <dt>ARC</dt>
              <dd>{trust.results.arc}</dd>
            </>
          ) : null}
          <dt>{t('mail.trust.spamScore')}</dt>
          <dd>
            {trust.spam
              ? t('mail.trust.score', {
                  score: trust.spam.score,
                  required: trust.spam.required,
                  action: trust.spam.action,
                })
              : trust.spam_unchecked
                ? t('mail.trust.spamUnchecked')
                : t('mail.trust.spamNotScored')}
          </dd>
          {trust.spam && trust.spam.symbols.length ? (
            <>
              <dt>{t('mail.trust.symbols')}</dt>
              <dd className={styles.symbols}>
                {trust.spam.symbols
                  .filter((s) => s.score !== 0)
                  .slice(0, 12)
                  .map((s) => `${s.name} ${s.score > 0 ? '+' : ''}${s.score}`)
                  .join(', ') || '—'}
              </dd>
            </>
          ) : null}
          {trust.list ? (
            <>
              <dt>{t('mail.trust.listLabel')}</dt>
              <dd>{t(`mail.trust.list.${trust.list}`)}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </>
  );
  if (!warning && !junk && !trust.reply_to) {
    return <div className={styles.quiet}>{details}</div>;
  }
  return (
    <div className={impostor ? styles.danger : styles.warning} role={impostor ? 'alert' : 'status'}>
      {impostor ? <ShieldAlert aria-hidden /> : <TriangleAlert aria-hidden />}
      <div className={styles.text}>
        {warning ? <p className={styles.line}>{warning}</p> : null}
        {junk ? <p className={styles.line}>{junk}</p> : null}
        {trust.reply_to ? (
          <p className={styles.line}>{t('mail.trust.replyTo', { address: trust.reply_to })}</p>
        ) : null}
        {details}
      </div>
    </div>
  );
}
