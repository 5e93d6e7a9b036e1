import type { MarkFlag, MessageQuery } from '@mailroom/protocol';
import type { ActionResult } from '@mailroom/protocol';
import { DomainError } from '../core/errors.js';
import { resolveBulkTargets } from './search.service.js';
import { deleteMessages, markMessages, moveMessages } from '../mailbox/index.js';
import { changeStore, type StoreChangeDeps } from './store-change.js';

export interface BulkParams {
  destination_id?: number | undefined;
  flag?: MarkFlag | undefined;
  label_id?: number | undefined;
}

/**
 * The bulk form (select-all, SPEC §4): every message matching `request` across all pages, found
 * and acted on in one transaction; the action's locks then skip what moved away meanwhile.
 */
export async function bulkAction(
  deps: StoreChangeDeps,
  accountId: number,
  type: 'move' | 'mark' | 'get' | 'delete',
  params: BulkParams,
  request: MessageQuery,
): Promise<ActionResult> {
  return changeStore(deps, accountId, async (trx) => {
    const targets = await resolveBulkTargets(trx, accountId, request);
    if (type === 'get') return { result: { ok: true, folder_messages: targets }, events: [] };
    if (type === 'delete') {
      if (!targets.length) return { result: { ok: true, deleted: [], moved: [] }, events: [] };
      return deleteMessages(trx, accountId, { folder_messages: targets });
    }
    if (type === 'move') {
      if (params.destination_id === undefined) throw new DomainError('request_folder_id_error');
      return moveMessages(trx, accountId, {
        destination_id: params.destination_id,
        folder_messages: targets,
      });
    }
    if (!params.flag) throw new DomainError('invalid_request_params');
    return markMessages(trx, accountId, {
      flag: params.flag,
      folder_messages: targets,
      label_id: params.label_id,
    });
  });
}
