import type { Collector } from '@mailroom/protocol';
import type { CollectorRow } from './collectors.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A collectors row as the API shows it (GET user/collectors, the `collector` event): never the password, nor the
 * job's lease and counters of failures. A disabled collector reads 'disabled' whatever its job last wrote.
 */
export function collectorView(row: CollectorRow): Collector {
  return {
    id: Number(row.id),
    email: row.email,
    login: row.login,
    folder_name: row.folder_name,
    server: { host: row.host, port: row.port, security: row.security },
    enabled: row.enabled,
    apply_filters: row.apply_filters,
    state: row.enabled ? row.state : 'disabled',
    progress: {
      folders_done: row.folders_done,
      folders_total: row.folders_total,
      messages_done: row.messages_done,
      messages_total: row.messages_total,
      messages_skipped: row.messages_skipped,
    },
    last_error: row.last_error,
    last_error_at: iso(row.last_error_at),
    last_sync_at: iso(row.last_sync_at),
    next_sync_at: row.enabled && row.state !== 'stopped' ? iso(row.next_sync_at) : null,
    created_at: row.created_at.toISOString(),
  };
}
