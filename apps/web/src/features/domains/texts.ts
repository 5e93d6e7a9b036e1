import type { Domain, DomainStatus } from '@mailroom/protocol';
import type { TextKey, Translate } from '../../i18n';

/** A domain's status (SPEC §4) in words. */
export const domainStatusText: Record<DomainStatus, TextKey> = {
  prepared: 'domains.status.prepared',
  waiting: 'domains.status.waiting',
  processing: 'domains.status.processing',
  failed: 'domains.status.failed',
  succeed: 'domains.status.succeed',
  unpaid: 'domains.status.unpaid',
  paying: 'domains.status.paying',
};

/** An address's status in words: prepared is 'not receiving yet', failed is its invoice's. */
export const emailStatusText: Record<DomainStatus, TextKey> = {
  prepared: 'domains.emails.status.prepared',
  waiting: 'domains.emails.status.prepared',
  processing: 'domains.emails.status.prepared',
  failed: 'domains.emails.status.failed',
  succeed: 'domains.emails.status.succeed',
  unpaid: 'domains.status.unpaid',
  paying: 'domains.status.paying',
};

/** Why the last verification failed, with what was found instead when the server says. */
export function failureText(t: Translate, domain: Domain): string | null {
  const failure = domain.failure;
  if (!failure) return null;
  const values = {
    name: domain.verification.txt_name,
    url: domain.verification.url,
    found: failure.found ?? '',
  };
  const reason =
    failure.reason === 'record_not_found'
      ? t(
          domain.method === 'meta'
            ? 'domains.failure.record_not_found_meta'
            : 'domains.failure.record_not_found',
          values,
        )
      : t(`domains.failure.${failure.reason}`, values);
  return failure.found && failure.reason !== 'wrong_token'
    ? `${reason} ${t('domains.failure.found', values)}`
    : reason;
}

/** Whether a paid thing's invoice is settled for good: no longer awaiting or checking its payment, nor failed. */
export const isSettled = (status: DomainStatus): boolean =>
  status !== 'unpaid' && status !== 'paying' && status !== 'failed';
