import type { Suggestion } from '@mailroom/protocol';
import type { Principal } from '../accounts/index.js';
import type { Db } from '../core/db/index.js';
import {
  patternsFor,
  suggestContactRows,
  suggestCorrespondentRows,
  suggestGroupRows,
  type SuggestScope,
} from './suggest.repository.js';

interface Ranked {
  tier: number;
  sent: number;
  label: string;
  suggestion: Suggestion;
}

const fullName = (name: string, surname: string) => [name, surname].filter(Boolean).join(' ');

async function ranked(
  db: Db,
  accountId: number,
  q: string,
  scope: SuggestScope,
  limit: number,
): Promise<Ranked[]> {
  const p = patternsFor(q);
  const [contacts, recent, groups] = await Promise.all([
    suggestContactRows(db, accountId, p, scope, limit),
    suggestCorrespondentRows(db, accountId, p, scope, limit),
    suggestGroupRows(db, accountId, p, scope, limit),
  ]);
  return [
    ...contacts.map((r) => ({
      tier: r.tier,
      sent: r.sent,
      label: fullName(r.name, r.surname) || r.email,
      suggestion: {
        kind: 'contact' as const,
        contact_id: r.contact_id,
        name: fullName(r.name, r.surname),
        email: r.email,
      },
    })),
    ...recent.map((r) => ({
      tier: r.tier,
      sent: r.sent,
      label: r.name || r.email,
      suggestion: { kind: 'recent' as const, name: r.name, email: r.email },
    })),
    ...groups.map((r) => ({
      tier: r.tier,
      sent: r.sent,
      label: r.name,
      suggestion: {
        kind: 'group' as const,
        group_id: r.group_id,
        name: r.name,
        members: r.members.map((m) => ({ name: fullName(m.name, m.surname), email: m.email })),
      },
    })),
  ];
}

/**
 * GET contacts/suggest: contacts (each address), groups and addresses written to, best match first (an address or
 * name starting with q, then a word starting with it, then containing it), then the most written to. A session held
 * to one address gets none (SPEC §6). The words-only pass answers most queries; the containing pass runs only when
 * it found fewer than `limit`.
 */
export async function suggest(db: Db, principal: Principal, q: string, limit: number): Promise<Suggestion[]> {
  if (principal.aliasEmail) return [];
  const query = q.trim().replace(/\s+/g, ' ');
  if (!query) return [];
  let found = await ranked(db, principal.accountId, query, 'word', limit);
  if (found.length < limit) found = await ranked(db, principal.accountId, query, 'any', limit);
  const collator = new Intl.Collator(undefined, { sensitivity: 'base' });
  found.sort((a, b) => a.tier - b.tier || b.sent - a.sent || collator.compare(a.label, b.label));
  return found.slice(0, limit).map((r) => r.suggestion);
}
