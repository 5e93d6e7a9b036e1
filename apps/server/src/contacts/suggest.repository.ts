import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';
import { escapeLike } from './contacts.repository.js';

/**
 * Compose's suggestions, each kind ranked in SQL so only `limit` rows of each leave the database. `tier`: 0 when the
 * address or the full name starts with q, 1 when a word of the name starts with it, 2 when either only contains
 * it; `sent` is how often the account has written to the address (to a group: to its members).
 *
 * `scope` 'word' takes only tiers 0 and 1 (`search_text like '% q%'`, served by the trigram index or the account's
 * rows); 'any' takes every tier. The service asks for 'any' only when 'word' did not fill the list.
 */
export type SuggestScope = 'word' | 'any';

export interface Patterns {
  /** q% */
  start: string;
  /** % q% */
  word: string;
  /** %q% */
  any: string;
}

export function patternsFor(q: string): Patterns {
  const e = escapeLike(q.toLowerCase());
  return { start: `${e}%`, word: `% ${e}%`, any: `%${e}%` };
}

export interface ContactSuggestionRow {
  contact_id: number;
  name: string;
  surname: string;
  email: string;
  tier: number;
  sent: number;
}

export async function suggestContactRows(
  db: Db,
  accountId: number,
  p: Patterns,
  scope: SuggestScope,
  limit: number,
): Promise<ContactSuggestionRow[]> {
  const filter = scope === 'word' ? p.word : p.any;
  // One row an address: ranked on contact_emails alone, the names read for the few that are kept.
  const { rows } = await sql<ContactSuggestionRow>`
    select best.contact_id, c.name, c.surname, best.email, best.tier, best.sent
    from (
      select e.contact_id, e.email, e.position, e.name_lower, coalesce(r.sent_count, 0) as sent,
        case
          when e.email_lower like ${p.start} or e.name_lower like ${p.start} then 0
          when ' ' || e.name_lower like ${p.word} then 1
          else 2
        end as tier
      from contact_emails e
      left join correspondents r on r.account_id = e.account_id and r.email = e.email_lower
      where e.account_id = ${accountId}
        and (' ' || e.email_lower like ${filter} or ' ' || e.name_lower like ${filter})
      order by tier, sent desc, e.name_lower, e.contact_id, e.position
      limit ${limit}
    ) best
    join contacts c on c.id = best.contact_id
    order by best.tier, best.sent desc, best.name_lower, best.contact_id, best.position`.execute(db);
  return rows.map((r) => ({ ...r, tier: Number(r.tier), sent: Number(r.sent) }));
}

export interface RecentSuggestionRow {
  email: string;
  name: string;
  tier: number;
  sent: number;
}

/** Addresses the account has written to that no contact has. */
export async function suggestCorrespondentRows(
  db: Db,
  accountId: number,
  p: Patterns,
  scope: SuggestScope,
  limit: number,
): Promise<RecentSuggestionRow[]> {
  const filter = scope === 'word' ? p.word : p.any;
  const { rows } = await sql<RecentSuggestionRow>`
    select r.email, r.name, r.sent_count as sent,
      case
        when r.email like ${p.start} or lower(r.name) like ${p.start} then 0
        when ' ' || lower(r.name) like ${p.word} then 1
        else 2
      end as tier
    from correspondents r
    where r.account_id = ${accountId}
      and (' ' || r.email like ${filter} or ' ' || lower(r.name) like ${filter})
      and not exists (
        select 1 from contact_emails e where e.account_id = r.account_id and e.email_lower = r.email
      )
    order by tier, sent desc, r.email
    limit ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, tier: Number(r.tier), sent: Number(r.sent) }));
}

export interface GroupSuggestionRow {
  group_id: number;
  name: string;
  tier: number;
  sent: number;
  members: { name: string; surname: string; email: string }[];
}

/** Groups by name, each with its members' primary addresses (groups without one are left out). */
export async function suggestGroupRows(
  db: Db,
  accountId: number,
  p: Patterns,
  scope: SuggestScope,
  limit: number,
): Promise<GroupSuggestionRow[]> {
  const filter = scope === 'word' ? p.word : p.any;
  const { rows } = await sql<{
    group_id: number;
    name: string;
    tier: number;
    sent: number;
    members: { name: string; surname: string; email: string }[];
  }>`
    select g.id as group_id, g.name,
      case when lower(g.name) like ${p.start} then 0 when ' ' || lower(g.name) like ${p.word} then 1 else 2 end as tier,
      coalesce(sum(r.sent_count), 0) as sent,
      jsonb_agg(jsonb_build_object('name', c.name, 'surname', c.surname, 'email', e.email)
        order by lower(c.surname), lower(c.name), c.id) as members
    from contact_groups g
    join contact_group_members m on m.group_id = g.id
    join contacts c on c.id = m.contact_id
    join contact_emails e on e.contact_id = c.id and e.position = 0
    left join correspondents r on r.account_id = g.account_id and r.email = e.email_lower
    where g.account_id = ${accountId} and ' ' || lower(g.name) like ${filter}
    group by g.id, g.name
    order by tier, sent desc, lower(g.name), g.id
    limit ${limit}`.execute(db);
  return rows.map((r) => ({
    ...r,
    tier: Number(r.tier),
    sent: Number(r.sent),
    members:
      typeof r.members === 'string' ? (JSON.parse(r.members) as GroupSuggestionRow['members']) : r.members,
  }));
}
