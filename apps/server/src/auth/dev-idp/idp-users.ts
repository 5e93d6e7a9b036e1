import { randomInt } from 'node:crypto';
import { isMemberId, type PassportLevel } from '@mailroom/protocol';
import type { Db } from '../../core/db/index.js';
import { DomainError } from '../../core/errors.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../core/password-hash.js';

/** Users of the embedded development identity provider (stand-in for the provider's account system). */
export interface IdpUser {
  memberId: string;
  name: string;
  /** What the member picked at sign-up, issued as the passport level claim. */
  passportLevel: PassportLevel;
}

function randomMemberId(): string {
  // First digit 1-9 so the ID never looks like it lost a leading zero.
  return String(randomInt(1, 10)) + String(randomInt(0, 100_000_000_000)).padStart(11, '0');
}

export async function createIdpUser(
  db: Db,
  input: { name: string; password: string; memberId?: string; passportLevel?: PassportLevel },
): Promise<IdpUser> {
  const name = input.name.trim();
  if (!name) throw new DomainError('name_not_indicated');
  if (input.memberId !== undefined && !isMemberId(input.memberId)) throw new DomainError('invalid_member_id');
  const password_hash = await hashPassword(input.password);
  // For trying the service out (`mailroom user add` too): formal, the level the sign-up page offers first.
  const passportLevel = input.passportLevel ?? 'formal';
  for (let attempt = 0; attempt < 5; attempt++) {
    const memberId = input.memberId ?? randomMemberId();
    const row = await db
      .insertInto('idp_users')
      .values({ member_id: memberId, name, password_hash, passport_level: passportLevel })
      .onConflict((oc) => oc.column('member_id').doNothing())
      .returning('member_id')
      .executeTakeFirst();
    if (row) return { memberId, name, passportLevel };
    if (input.memberId) throw new DomainError('member_id_taken');
  }
  throw new DomainError('user_create_error');
}

export async function findIdpUser(db: Db, memberId: string): Promise<IdpUser | undefined> {
  if (!isMemberId(memberId)) return undefined;
  const row = await db
    .selectFrom('idp_users')
    .select(['member_id', 'name', 'passport_level'])
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  return row && { memberId: row.member_id, name: row.name, passportLevel: row.passport_level };
}

export async function verifyIdpUser(
  db: Db,
  memberId: string,
  password: string,
): Promise<IdpUser | undefined> {
  const row = isMemberId(memberId)
    ? await db
        .selectFrom('idp_users')
        .select(['member_id', 'name', 'password_hash', 'passport_level'])
        .where('member_id', '=', memberId)
        .executeTakeFirst()
    : undefined;
  const ok = await verifyPassword(password, row?.password_hash ?? dummyPasswordHash);
  return row && ok
    ? { memberId: row.member_id, name: row.name, passportLevel: row.passport_level }
    : undefined;
}
