import { Counter, Histogram } from 'prom-client';
import { durationBuckets, metricsRegistry } from '../core/metrics.js';

/** Why ingest turned a message (or one of its recipients) away: a fixed set, so the series stay few. */
export type RefusalReason =
  | 'bad_sender'
  | 'bad_recipient'
  | 'relay_denied'
  | 'unknown_recipient'
  | 'too_many_recipients'
  | 'too_large'
  | 'quota'
  | 'quota_permanent'
  | 'busy'
  | 'bare_line_ending'
  | 'dmarc_reject'
  | 'spam_reject'
  | 'spam_defer'
  | 'temporary';

type Protocol = 'smtp' | 'lmtp';

const received = new Counter({
  name: 'mailroom_ingest_messages_received_total',
  help: 'Messages whose DATA ended, by protocol (smtp, lmtp)',
  labelNames: ['protocol'] as const,
  registers: [metricsRegistry],
});
const accepted = new Counter({
  name: 'mailroom_ingest_messages_accepted_total',
  help: 'Messages answered 250 (stored for every recipient), by protocol',
  labelNames: ['protocol'] as const,
  registers: [metricsRegistry],
});
const refused = new Counter({
  name: 'mailroom_ingest_refused_total',
  help: 'Refusals by ingest, by protocol, stage (mail, rcpt, data) and reason',
  labelNames: ['protocol', 'stage', 'reason'] as const,
  registers: [metricsRegistry],
});
const bytes = new Counter({
  name: 'mailroom_ingest_bytes_total',
  help: 'Bytes of message data received, by protocol',
  labelNames: ['protocol'] as const,
  registers: [metricsRegistry],
});
const duration = new Histogram({
  name: 'mailroom_ingest_store_duration_seconds',
  help: "From a message's last byte to its reply (parse, store, filters), by protocol and result (accepted, refused)",
  labelNames: ['protocol', 'result'] as const,
  buckets: durationBuckets,
  registers: [metricsRegistry],
});
const recipients = new Counter({
  name: 'mailroom_delivery_recipients_total',
  help:
    'Recipient accounts of delivered messages (SMTP, LMTP, local outbox mail), by outcome: stored, duplicate ' +
    '(a retry already stored), quota, quota_permanent, temporary',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

const checks = new Histogram({
  name: 'mailroom_ingest_check_duration_seconds',
  help: "A message's checks before it is stored, by check (auth: SPF, DKIM, DMARC and ARC; spam: Rspamd)",
  labelNames: ['check'] as const,
  buckets: durationBuckets,
  registers: [metricsRegistry],
});
const verdicts = new Counter({
  name: 'mailroom_ingest_verdicts_total',
  help:
    'Results of the checks of incoming mail: check (dmarc, spam) and result (pass, fail, none, temperror, …; ' +
    "spam: Rspamd's action, or unavailable when it was not reached in time)",
  labelNames: ['check', 'result'] as const,
  registers: [metricsRegistry],
});

export const ingestMetrics = {
  checked(check: 'auth' | 'spam', ms: number) {
    checks.observe({ check }, ms / 1000);
  },
  verdict(check: 'dmarc' | 'spam', result: string) {
    verdicts.inc({ check, result });
  },
  refused(protocol: Protocol, stage: 'mail' | 'rcpt' | 'data', reason: RefusalReason) {
    refused.inc({ protocol, stage, reason });
  },
  /** A message's data ended: counted, its bytes added; the returned function times it until its reply. */
  received(protocol: Protocol, size: number): (result: 'accepted' | 'refused') => void {
    received.inc({ protocol });
    bytes.inc({ protocol }, size);
    const end = duration.startTimer({ protocol });
    return (result) => {
      end({ result });
      if (result === 'accepted') accepted.inc({ protocol });
    };
  },
  recipient(outcome: 'stored' | 'duplicate' | 'quota' | 'quota_permanent' | 'temporary', count = 1) {
    recipients.inc({ outcome }, count);
  },
};
