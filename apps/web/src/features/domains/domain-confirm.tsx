import { useId, useState } from 'react';
import clsx from 'clsx';
import { RotateCw, BadgeCheck } from 'lucide-react';
import type { DnsCheck, DomainDetailResponse, VerificationMethod } from '@mailroom/protocol';
import { useErrorText } from '../../api/use-error-text';
import { useTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { CopyButton, CopyValue } from './copy-button';
import { DomainPage } from './domain-page';
import { domainEmailsPath } from './paths';
import { useDomainDetail, useVerifyDomain } from './queries';
import { domainStatusText, failureText } from './texts';
import rowStyles from '../../ui/address-rows.module.css';
import styles from './domains.module.css';
import { TxtRecord } from './txt-record';
import { FormActions, FormError } from '../../ui/form-parts';
import { TableHead } from '../../ui/table-head';

/**
 * settings/domains/confirm/{id}: how to prove the domain is yours (a DNS TXT record or a meta tag on its site), exactly
 * what to publish, and Check; then the DNS health of the domain, record by record, and the zone snippet to copy.
 */
export function DomainConfirmPage({ id }: { id: number }) {
  const { t } = useTranslation();
  const detail = useDomainDetail(id);
  return (
    <DomainPage
      title={t('domains.confirm.title', { name: detail.data?.domain.display_name ?? '' })}
      query={detail}
    >
      {detail.data ? <Confirm detail={detail.data} /> : null}
    </DomainPage>
  );
}

function Confirm({ detail }: { detail: DomainDetailResponse }) {
  const { t } = useTranslation();
  const id = useId();
  const { domain } = detail;
  const [method, setMethod] = useState<VerificationMethod>(domain.method ?? 'dns');
  const verify = useVerifyDomain();
  const errorText = useErrorText(verify.error);
  const failure = domain.status === 'failed' ? failureText(t, domain) : null;
  const verifying = domain.status === 'waiting' || domain.status === 'processing';
  const v = domain.verification;

  function check() {
    // confirm starts a verification by the method chosen; check runs the last one again.
    const again = domain.method === method && domain.status !== 'prepared';
    verify.mutate(
      { id: domain.id, method: again ? null : method },
      {
        onSuccess: ({ domain: checked }) => {
          if (checked.status === 'succeed')
            raiseSuccess(t('domains.confirm.verified', { name: checked.display_name }));
        },
      },
    );
  }

  return (
    <>
      <p className={page.hint}>
        <span className={clsx(rowStyles.status, rowStyles[domain.status])}>
          {t(domainStatusText[domain.status])}
        </span>{' '}
        {domain.status === 'succeed' ? t('domains.confirm.verifiedHint') : t('domains.confirm.intro')}
      </p>
      <fieldset className={page.group}>
        <legend className={page.groupTitle}>{t('domains.confirm.method')}</legend>
        {(['dns', 'meta'] as const).map((choice) => (
          <label key={choice} className={page.check}>
            <input
              type="radio"
              name={`${id}-method`}
              checked={method === choice}
              onChange={() => {
                setMethod(choice);
                verify.reset();
              }}
            />
            {t(`domains.confirm.${choice}`)}
          </label>
        ))}
      </fieldset>

      <section className={page.group} aria-label={t('domains.confirm.publish')}>
        <h3 className={page.groupTitle}>{t('domains.confirm.publish')}</h3>
        {method === 'dns' ? (
          <>
            <p className={page.hint}>{t('domains.confirm.dnsHint')}</p>
            <TxtRecord
              name={<CopyValue value={v.txt_name} label={t('domains.confirm.copyName')} />}
              value={<CopyValue value={v.txt_value} label={t('domains.confirm.copyValue')} />}
            />
          </>
        ) : (
          <>
            <p className={page.hint}>{t('domains.confirm.metaHint', { url: v.url })}</p>
            <CopyValue value={v.meta_tag} label={t('domains.confirm.copyTag')} />
          </>
        )}
        {failure ? (
          <p className={page.error} role="note">
            {failure}
          </p>
        ) : null}
        <FormError>{errorText}</FormError>
        <FormActions>
          {domain.status === 'succeed' ? (
            <Link to={domainEmailsPath(domain.id)} className={buttonClass()}>
              {t('domains.emails.title')}
            </Link>
          ) : null}
          <Button variant="primary" onClick={check} disabled={verify.isPending || verifying}>
            {verifying ? <RotateCw aria-hidden /> : <BadgeCheck aria-hidden />}
            {verifying ? t('domains.confirm.checking') : t('domains.confirm.check')}
          </Button>
        </FormActions>
      </section>

      <DnsHealth detail={detail} />
    </>
  );
}

/** The DNS health of the domain (found against expected) and the zone snippet with everything to publish. */
export function DnsHealth({ detail }: { detail: DomainDetailResponse }) {
  const { t } = useTranslation();
  const columns = {
    kind: t('domains.dns.kind'),
    type: t('domains.dns.type'),
    name: t('domains.dns.name'),
    expected: t('domains.dns.expected'),
    found: t('domains.dns.found'),
    state: t('domains.dns.state'),
  };
  return (
    <section className={page.group} aria-label={t('domains.dns.title')}>
      <h3 className={page.groupTitle}>{t('domains.dns.title')}</h3>
      <p className={page.hint}>{t('domains.dns.intro')}</p>
      <table className={styles.health} aria-label={t('domains.dns.title')}>
        <TableHead columns={columns} />
        <tbody>
          {detail.dns.map((record, index) => (
            <DnsRow key={`${record.kind}-${record.name}-${index}`} record={record} columns={columns} />
          ))}
        </tbody>
      </table>
      <FormActions start={<h4 className={page.groupTitle}>{t('domains.dns.zone')}</h4>}>
        <CopyButton text={detail.zone} label={t('domains.dns.copyZone')} />
      </FormActions>
      <pre className={styles.zone} aria-label={t('domains.dns.zone')}>
        {detail.zone}
      </pre>
    </section>
  );
}

function DnsRow({ record, columns }: { record: DnsCheck; columns: Record<string, string> }) {
  const { t } = useTranslation();
  return (
    <tr aria-label={`${t(`domains.dns.kinds.${record.kind}`)} ${record.name}`}>
      <th scope="row">{t(`domains.dns.kinds.${record.kind}`)}</th>
      <td data-label={columns.type}>{record.type}</td>
      <td data-label={columns.name}>
        <code>{record.name}</code>
      </td>
      <td data-label={columns.expected}>
        <span className={styles.copyValue}>
          <code>
            <span className={styles.clamped} title={record.expected}>
              {record.expected}
            </span>
          </code>
          <CopyButton text={record.expected} label={t('domains.dns.copyExpected')} />
        </span>
      </td>
      <td data-label={columns.found}>
        {record.found.length > 0 ? (
          record.found.map((found, index) => (
            <code key={index} className={styles.foundValue}>
              <span className={styles.clamped} title={found}>
                {found}
              </span>
            </code>
          ))
        ) : (
          <span className={page.muted}>{t('domains.dns.nothing')}</span>
        )}
      </td>
      <td data-label={columns.state}>
        {record.ok ? (
          <span className={styles.ok}>{t('domains.dns.ok')}</span>
        ) : record.found.length === 0 ? (
          <>
            <span className={styles.missing}>{t('domains.dns.missing')}</span>
            <p className={styles.meaning}>{t(`domains.dns.meaning.${record.kind}`)}</p>
          </>
        ) : (
          <>
            <span className={styles.missing}>{t('domains.dns.differs')}</span>
            <p className={styles.meaning}>
              {record.kind === 'spf' && record.found.length > 1
                ? t('domains.dns.differsMeaning.spfMany')
                : t(`domains.dns.differsMeaning.${record.kind}`)}
            </p>
            {record.suggested ? (
              <>
                <p className={styles.meaning}>{t('domains.dns.replaceWith')}</p>
                <CopyValue value={record.suggested} label={t('domains.dns.copySuggested')} />
              </>
            ) : null}
          </>
        )}
      </td>
    </tr>
  );
}
