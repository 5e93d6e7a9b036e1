import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { lockAccount } from '../mailbox/index.js';
import {
  clearDefaultProfile,
  countProfiles,
  deleteProfileRow,
  insertProfile,
  lockProfile,
  oldestProfile,
  updateProfileRow,
} from './profiles.repository.js';

/** What a profile is made of once its address is checked and its signature sanitised (the user area does both). */
export interface ProfileValues {
  name: string;
  email: string;
  signature: string;
}

// Every change takes the account row's lock first (the one lock order, mailbox's): two changes of one account's
// profiles never interleave, so "exactly one default" holds without a unique-index failure between them.

/** Adds a profile; `makeDefault` takes the default from the one that had it, in the same transaction. */
export async function addProfile(
  db: Db,
  accountId: number,
  values: ProfileValues & { makeDefault: boolean },
): Promise<number> {
  return transact(db, async (trx) => {
    await lockAccount(trx, accountId);
    if (values.makeDefault) await clearDefaultProfile(trx, accountId);
    return insertProfile(trx, {
      accountId,
      name: values.name,
      email: values.email,
      signature: values.signature,
      isDefault: values.makeDefault,
    });
  });
}

/**
 * Changes the fields given; `makeDefault` makes it the one default (a default is never unset but by making another
 * the default). profile_not_found for an unknown id or another account's.
 */
export async function changeProfile(
  db: Db,
  accountId: number,
  id: number,
  values: Partial<ProfileValues> & { makeDefault?: boolean },
): Promise<void> {
  await transact(db, async (trx) => {
    await lockAccount(trx, accountId);
    const profile = await lockProfile(trx, accountId, id);
    if (!profile) throw new DomainError('profile_not_found');
    const { makeDefault, ...fields } = values;
    if (makeDefault && !profile.is_default) await clearDefaultProfile(trx, accountId);
    const set = { ...fields, ...(makeDefault ? { is_default: true } : {}) };
    if (Object.keys(set).length) await updateProfileRow(trx, accountId, id, set);
  });
}

/**
 * Deletes a profile; when it was the default, the oldest remaining one becomes the default. The last profile
 * stays (invalid_request_params): the account always has a sender identity.
 */
export async function removeProfile(db: Db, accountId: number, id: number): Promise<void> {
  await transact(db, async (trx) => {
    await lockAccount(trx, accountId);
    const profile = await lockProfile(trx, accountId, id);
    if (!profile) throw new DomainError('profile_not_found');
    if ((await countProfiles(trx, accountId)) <= 1)
      throw new DomainError('invalid_request_params', 'The last profile cannot be deleted');
    await deleteProfileRow(trx, accountId, id);
    if (profile.is_default) {
      const next = await oldestProfile(trx, accountId);
      if (next) await updateProfileRow(trx, accountId, next.id, { is_default: true });
    }
  });
}
