import { passportLevelValues, type PassportLevel } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { readPassportLevel, writePassportLevel } from './accounts.repository.js';

/**
 * The level of identity check the provider reports for the member (SPEC §5: creating an alias or a domain needs at
 * least 'formal'). Stored at each sign-in from the OIDC claim OIDC_PASSPORT_LEVEL_CLAIM; a claim that is missing or
 * names no known level counts as 'none', so a provider that stops vouching takes the right away at the next sign-in.
 */
export function parsePassportLevel(claim: unknown): PassportLevel {
  return typeof claim === 'string' && (passportLevelValues as readonly string[]).includes(claim)
    ? (claim as PassportLevel)
    : 'none';
}

/** Whether `level` is at least `wanted` in the order none < formal < verified < full. */
export function passportLevelAtLeast(level: PassportLevel, wanted: PassportLevel): boolean {
  return passportLevelValues.indexOf(level) >= passportLevelValues.indexOf(wanted);
}

export async function setPassportLevel(db: Db, accountId: number, level: PassportLevel): Promise<void> {
  await writePassportLevel(db, accountId, level);
}

/** The account's stored level ('none' for an account that is not there). */
export async function passportLevelOf(db: Db, accountId: number): Promise<PassportLevel> {
  return (await readPassportLevel(db, accountId)) ?? 'none';
}
