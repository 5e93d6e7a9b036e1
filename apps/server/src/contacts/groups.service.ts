import type { Group, GroupSummary, groupMembersSchema } from '@mailroom/protocol';
import type { z } from 'zod';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { findContacts, lockAddressBook, ownedContactIds } from './contacts.repository.js';
import { contactsChanged, type ContactsDeps } from './changes.js';
import { requiredName, toContact } from './contacts.service.js';
import {
  addMembers,
  countGroups,
  deleteGroup,
  findGroup,
  findGroupByName,
  insertGroup,
  listGroups,
  memberIds,
  removeMembers,
  renameGroup,
  type GroupRow,
} from './groups.repository.js';

/** The caller's group, or entity_not_found for an unknown id or another account's. */
export async function requireGroup(db: Db, accountId: number, groupId: number): Promise<GroupRow> {
  const group = await findGroup(db, accountId, groupId);
  if (!group) throw new DomainError('entity_not_found');
  return group;
}

/** A write that two requests may race past the name check: the unique index answers group_already_exist. */
async function refusingDuplicates<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('group_already_exist');
    throw err;
  }
}

/** The account's group of this name in any case, made when there is none; `created` says which. */
export async function ensureGroup(
  trx: Trx,
  accountId: number,
  name: string,
): Promise<{ group: GroupRow; created: boolean }> {
  const found = await findGroupByName(trx, accountId, name);
  if (found) return { group: found, created: false };
  return { group: await insertGroup(trx, accountId, name), created: true };
}

export async function getGroups(db: Db, accountId: number): Promise<GroupSummary[]> {
  return listGroups(db, accountId);
}

/** GET groups/{id}: the group with its members by surname, then name. */
export async function getGroup(db: Db, accountId: number, groupId: number): Promise<Group> {
  const group = await requireGroup(db, accountId, groupId);
  const members = await findContacts(db, accountId, await memberIds(db, groupId));
  const key = (c: { surname: string; name: string }) =>
    `${c.surname.toLowerCase()}\u0000${c.name.toLowerCase()}`;
  members.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
  return { id: group.id, name: group.name, contacts: members.map(toContact) };
}

/** POST contacts/groups: a name no other group of the account has, in any case (group_already_exist). */
export async function createGroup(
  deps: ContactsDeps,
  accountId: number,
  name: string,
  maxGroups: number,
): Promise<Group> {
  const checked = requiredName(name);
  const group = await refusingDuplicates(() =>
    transact(deps.db, async (trx) => {
      if (await findGroupByName(trx, accountId, checked)) throw new DomainError('group_already_exist');
      await lockAddressBook(trx, accountId);
      if ((await countGroups(trx, accountId)) >= maxGroups)
        throw new DomainError('contact_groups_limit_reached');
      await contactsChanged(trx, deps, accountId, ['groups']);
      return insertGroup(trx, accountId, checked);
    }),
  );
  return { id: group.id, name: group.name, contacts: [] };
}

/** POST contacts/groups/{id}: renames. */
export async function changeGroup(
  deps: ContactsDeps,
  accountId: number,
  groupId: number,
  name: string,
): Promise<Group> {
  const checked = requiredName(name);
  await refusingDuplicates(() =>
    transact(deps.db, async (trx) => {
      await requireGroup(trx, accountId, groupId);
      if (await findGroupByName(trx, accountId, checked, groupId))
        throw new DomainError('group_already_exist');
      await renameGroup(trx, accountId, groupId, checked);
      await contactsChanged(trx, deps, accountId, ['groups']);
    }),
  );
  return getGroup(deps.db, accountId, groupId);
}

/**
 * POST contacts/groups/{id}/contacts: adds and removes members. Every id must be the caller's contact, or nothing
 * changes (entity_not_found).
 */
export async function changeMembers(
  deps: ContactsDeps,
  accountId: number,
  groupId: number,
  body: z.output<typeof groupMembersSchema>,
): Promise<Group> {
  await transact(deps.db, async (trx) => {
    await requireGroup(trx, accountId, groupId);
    const ids = [...new Set([...body.add, ...body.remove])];
    const owned = await ownedContactIds(trx, accountId, ids);
    if (owned.size !== ids.length) throw new DomainError('entity_not_found');
    await removeMembers(trx, groupId, [...new Set(body.remove)]);
    await addMembers(trx, groupId, [...new Set(body.add)]);
    await contactsChanged(trx, deps, accountId, ['groups', 'contacts']);
  });
  return getGroup(deps.db, accountId, groupId);
}

/** DELETE contacts/groups/{id}: the group goes; its contacts stay. */
export async function removeGroup(deps: ContactsDeps, accountId: number, groupId: number): Promise<void> {
  await transact(deps.db, async (trx) => {
    if (!(await deleteGroup(trx, accountId, groupId))) throw new DomainError('entity_not_found');
    await contactsChanged(trx, deps, accountId, ['groups', 'contacts']);
  });
}
