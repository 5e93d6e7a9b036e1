import type { Label, MailEvent } from '@mailroom/protocol';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { groupByFolder, requireFolder } from '../mailbox/index.js';
import {
  deleteLabel,
  findLabel,
  insertLabel,
  listLabels,
  updateLabel,
  type LabelValues,
} from './labels.repository.js';

export { listLabels };

/** The caller's label, or entity_not_found for an unknown id or another account's. */
export async function requireLabel(db: Db, accountId: number, labelId: number): Promise<Label> {
  const label = await findLabel(db, accountId, labelId);
  if (!label) throw new DomainError('entity_not_found');
  return label;
}

type LabelInput = Partial<LabelValues> & { name?: string; search_content?: string };

/** Trims and checks what a create or update sets; a folder must be the caller's. */
async function checkedValues(db: Db, accountId: number, input: LabelInput): Promise<Partial<LabelValues>> {
  const values: Partial<LabelValues> = { ...input };
  if (input.name !== undefined) {
    values.name = input.name.trim();
    if (!values.name) throw new DomainError('name_not_indicated');
  }
  if (input.search_content !== undefined) {
    values.search_content = input.search_content.trim();
    if (!values.search_content) throw new DomainError('search_content_not_indicated');
  }
  if (input.color !== undefined) values.color = input.color.toLowerCase();
  if (input.folder_id != null) await requireFolder(db, accountId, input.folder_id);
  return values;
}

export async function createLabel(
  db: Db,
  accountId: number,
  input: LabelInput & Pick<LabelValues, 'color' | 'search_field'>,
): Promise<Label> {
  if (!input.name?.trim()) throw new DomainError('name_not_indicated');
  if (!input.search_content?.trim()) throw new DomainError('search_content_not_indicated');
  const values = await checkedValues(db, accountId, input);
  return insertLabel(db, accountId, { ...(values as LabelValues), folder_id: values.folder_id ?? null });
}

export async function changeLabel(db: Db, accountId: number, labelId: number, input: LabelInput) {
  const values = await checkedValues(db, accountId, input);
  const label = Object.keys(values).length
    ? await updateLabel(db, accountId, labelId, values)
    : await findLabel(db, accountId, labelId);
  if (!label) throw new DomainError('entity_not_found');
  return label;
}

/** Removes the label and its keyword from every message; `store` events name the messages touched. */
export async function removeLabel(db: Db, accountId: number, labelId: number): Promise<MailEvent[]> {
  const { deleted, untagged } = await transact(db, (trx) => deleteLabel(trx, accountId, labelId));
  if (!deleted) throw new DomainError('entity_not_found');
  return groupByFolder(untagged).map(({ folder_id, message_uids }) => ({
    event: 'store',
    folder_id,
    uids: message_uids,
  }));
}
