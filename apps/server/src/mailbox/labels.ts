import { DEFAULT_LABEL_COLOR, type Label, type MailEvent } from '@mailroom/protocol';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { nameTaken, requireFolder } from './folders.repository.js';
import { groupByFolder } from './purge.js';
import {
  deleteLabel,
  ensureLabelRows,
  findLabel,
  insertLabel,
  listLabels,
  updateLabel,
  type LabelValues,
} from './labels.repository.js';

export { listLabels };

/*
 * Labels are the account's message keywords (table `labels`, names unique per account in any case): the store owns
 * them with the messages that carry them, so deleting one takes its keyword off every message here.
 */

/** The caller's label, or entity_not_found for an unknown id or another account's. */
export async function requireLabel(db: Db, accountId: number, labelId: number): Promise<Label> {
  const label = await findLabel(db, accountId, labelId);
  if (!label) throw new DomainError('entity_not_found');
  return label;
}

type LabelInput = Partial<LabelValues> & { name?: string; search_content?: string };

/** A create or update; two of them racing past the name check meet the unique index instead. */
async function refusingDuplicates<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('label_already_exist');
    throw err;
  }
}

/**
 * Trims and checks what a create or update sets: a name no other label of the account has (in any case), a folder
 * of the caller's.
 */
async function checkedValues(
  db: Db,
  accountId: number,
  input: LabelInput,
  labelId?: number,
): Promise<Partial<LabelValues>> {
  const values: Partial<LabelValues> = { ...input };
  if (input.name !== undefined) {
    values.name = input.name.trim();
    if (!values.name) throw new DomainError('name_not_indicated');
    if (await nameTaken(db, 'labels', accountId, values.name, labelId))
      throw new DomainError('label_already_exist');
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
  return refusingDuplicates(() =>
    insertLabel(db, accountId, { ...(values as LabelValues), folder_id: values.folder_id ?? null }),
  );
}

export async function changeLabel(db: Db, accountId: number, labelId: number, input: LabelInput) {
  const values = await checkedValues(db, accountId, input, labelId);
  const label = Object.keys(values).length
    ? await refusingDuplicates(() => updateLabel(db, accountId, labelId, values))
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

/**
 * Labels by name, made as needed (an import's Gmail labels): their ids by lowercased name. In the caller's
 * transaction, which holds the account's lock (lockAccount).
 */
export function ensureLabels(trx: Trx, accountId: number, names: string[]): Promise<Map<string, number>> {
  return ensureLabelRows(trx, accountId, names, {
    color: DEFAULT_LABEL_COLOR,
    search_field: 'body',
    folder_id: null,
  });
}
