import { sql } from 'kysely';
import type { Db, Trx } from '../core/db/index.js';

/**
 * Counts one message to each address (lowercased, each once however often the message names it): one more send,
 * sent now, under the name it was last written to with.
 */
export async function recordCorrespondents(
  trx: Trx,
  accountId: number,
  recipients: { email: string; name: string }[],
  at: Date,
): Promise<void> {
  const byEmail = new Map<string, string>();
  for (const r of recipients) {
    const email = r.email.trim().toLowerCase();
    if (!email || email.length > 320) continue;
    if (!byEmail.has(email) || (!byEmail.get(email) && r.name)) byEmail.set(email, r.name.trim());
  }
  if (!byEmail.size) return;
  await trx
    .insertInto('correspondents')
    .values(
      [...byEmail].map(([email, name]) => ({
        account_id: accountId,
        email,
        name,
        sent_count: 1,
        last_sent_at: at,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['account_id', 'email']).doUpdateSet({
        sent_count: sql`correspondents.sent_count + 1`,
        last_sent_at: sql`greatest(correspondents.last_sent_at, excluded.last_sent_at)`,
        name: sql`case when excluded.name <> '' then excluded.name else correspondents.name end`,
      }),
    )
    .execute();
}

/** Whether the account has written to this address (lowercased). */
export async function isCorrespondent(db: Db, accountId: number, emailLower: string): Promise<boolean> {
  const row = await db
    .selectFrom('correspondents')
    .select('sent_count')
    .where('account_id', '=', accountId)
    .where('email', '=', emailLower)
    .executeTakeFirst();
  return row !== undefined;
}
