import type { Profile, ProfileUpdate } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import {
  addProfile,
  changeProfile,
  listProfiles,
  removeProfile,
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

export async function createProfile(
  deps: ProfileDeps,
  accountId: number,
  input: { name: string; email: string; signature: string; default: boolean },
): Promise<Profile[]> {
  await addProfile(deps.db, accountId, {
    name: input.name.trim(),
    email: await sendableAddress(deps.db, accountId, input.email),
    signature: sanitiseSignature(input.signature),
    makeDefault: input.default,
  });
  return changed(deps, accountId);
}

export async function updateProfile(
  deps: ProfileDeps,
  accountId: number,
  id: number,
  update: ProfileUpdate,
): Promise<Profile[]> {
  await changeProfile(deps.db, accountId, id, {
    ...(update.name !== undefined ? { name: update.name.trim() } : {}),
    ...(update.email !== undefined ? { email: await sendableAddress(deps.db, accountId, update.email) } : {}),
    ...(update.signature !== undefined ? { signature: sanitiseSignature(update.signature) } : {}),
    ...(update.default ? { makeDefault: true } : {}),
  });
  return changed(deps, accountId);
}

export async function deleteProfile(deps: ProfileDeps, accountId: number, id: number): Promise<Profile[]> {
  await removeProfile(deps.db, accountId, id);
  return changed(deps, accountId);
}
