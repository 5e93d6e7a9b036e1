import type { Profile, ProfileUpdate } from '@mailroom/protocol';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { lockAccount } from '../mailbox/index.js';
import {
  clearDefaultProfile,
  countProfiles,
  deleteProfileRow,
  insertProfile,
  listProfiles,
  lockProfile,
  oldestProfile,
  updateProfileRow,
  type ProfileRow,
} from '../accounts/index.js';
import { senderAddressesOf } from '../addresses/index.js';
import { sanitiseSignature } from './signature-html.js';

export interface ProfileDeps {
  db: Db;
  events: EventBus;
  log: PublishLog;
}

export function toProfile(row: ProfileRow): Profile {
  return { id: row.id, name: row.name, email: row.email, signature: row.signature, default: row.is_default };
}

/** The account's profiles, the default first. */
export async function profilesOf(db: Db, accountId: number): Promise<Profile[]> {
  return (await listProfiles(db, accountId)).map(toProfile);
}

/**
 * The address as the account has it (its case), when the account may send from it; a profile names one of those
 * addresses, never another (failed_validation_email_address).
 */
async function sendableAddress(db: Db, accountId: number, email: string): Promise<string> {
  const wanted = email.trim().toLowerCase();
  const match = (await senderAddressesOf(db, accountId)).find((a) => a.email.toLowerCase() === wanted);
  if (!match)
    throw new DomainError(
      'failed_validation_email_address',
      'Invalid email address: not one you may send from',
    );
  return match.email;
}

/** After a change: the profiles as they are now, and the owner's other tabs told. */
async function changed(deps: ProfileDeps, accountId: number): Promise<Profile[]> {
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'profiles' }]);
  return profilesOf(deps.db, accountId);
}

// Every change takes the account row's lock first (the one lock order, mailbox's): two changes of one account's
// profiles never interleave, so "exactly one default" holds without a unique-index failure between them.

/**
 * Adds a profile from an address the account may send from, its signature sanitised; `default` takes the default
 * from the one that had it, in the same transaction.
 */
export async function createProfile(
  deps: ProfileDeps,
  accountId: number,
  input: { name: string; email: string; signature: string; default: boolean },
): Promise<Profile[]> {
  const email = await sendableAddress(deps.db, accountId, input.email);
  await transact(deps.db, async (trx) => {
    await lockAccount(trx, accountId);
    if (input.default) await clearDefaultProfile(trx, accountId);
    await insertProfile(trx, {
      accountId,
      name: input.name.trim(),
      email,
      signature: sanitiseSignature(input.signature),
      isDefault: input.default,
    });
  });
  return changed(deps, accountId);
}

/**
 * Changes the fields given; `default` makes it the one default (a default is never unset but by making another the
 * default). profile_not_found for an unknown id or another account's.
 */
export async function updateProfile(
  deps: ProfileDeps,
  accountId: number,
  id: number,
  update: ProfileUpdate,
): Promise<Profile[]> {
  const fields = {
    ...(update.name !== undefined ? { name: update.name.trim() } : {}),
    ...(update.email !== undefined ? { email: await sendableAddress(deps.db, accountId, update.email) } : {}),
    ...(update.signature !== undefined ? { signature: sanitiseSignature(update.signature) } : {}),
  };
  await transact(deps.db, async (trx) => {
    await lockAccount(trx, accountId);
    const profile = await lockProfile(trx, accountId, id);
    if (!profile) throw new DomainError('profile_not_found');
    const makeDefault = update.default === true;
    if (makeDefault && !profile.is_default) await clearDefaultProfile(trx, accountId);
    const set = { ...fields, ...(makeDefault ? { is_default: true } : {}) };
    if (Object.keys(set).length) await updateProfileRow(trx, accountId, id, set);
  });
  return changed(deps, accountId);
}

/**
 * Deletes a profile; when it was the default, the oldest remaining one becomes the default. The last profile stays
 * (invalid_request_params): the account always has a sender identity.
 */
export async function deleteProfile(deps: ProfileDeps, accountId: number, id: number): Promise<Profile[]> {
  await transact(deps.db, async (trx) => {
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
  return changed(deps, accountId);
}
