/**
 * Folder page latency (DESIGN.md §5: 30 messages on a 100,000-message mailbox, server time,
 * p50 ≤ 5 ms on PostgreSQL / ≤ 25 ms on PGlite). The corpus is written with set-based SQL
 * (generate_series): varied senders and subjects in English and Russian, chains of three,
 * a share of mail to an alias, most of it read. Measured is `listFolderMessages`, the service
 * behind GET messages/folder/{id}: the queries plus row mapping, without HTTP.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/list.ts [messages] [databaseUrl]
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import type { ListQuery } from '@mailroom/protocol';
import { migrate, openDatabase, upkeepDatabase, type Db } from '../apps/server/src/core/db/index.js';
import { pgliteExtensions } from '../apps/server/src/core/db/pglite-open.js';
import { ensureAccount } from '../apps/server/src/accounts/index.js';
import { systemFolder } from '../apps/server/src/mailbox/index.js';
import { listFolderMessages } from '../apps/server/src/mail/messages-read.service.js';
import type { BenchRow } from './types.js';

const BATCH = 10_000;

/** Inserts `count` messages into a folder in batches; ~90 % of the mailbox goes to the Inbox. */
async function fillFolder(
  db: Db,
  accountId: number,
  folderId: number,
  count: number,
  aliasId: number,
  firstThread: number,
) {
  for (let from = 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    await sql`
      insert into messages (account_id, folder_id, uid, thread_id, blob_hash, size, message_id, subject,
        thread_subject, from_email, from_name, addresses, preview, seen, flagged, alias_id, received_at,
        has_attachments)
      select ${accountId}, ${folderId}, i, ${firstThread} + i / 3,
        md5(${folderId}::text || i::text) || md5(i::text), 2000 + (i * 7919) % 60000,
        'bench-' || ${folderId} || '-' || i || '@example.com',
        s.subject || ' #' || (i / 3), lower(s.subject || ' #' || (i / 3)),
        'sender' || (i % 500) || '@' || s.domain, s.name || ' ' || (i % 500),
        jsonb_build_object(
          'from', jsonb_build_array(jsonb_build_object('email', 'sender' || (i % 500) || '@' || s.domain, 'name', s.name || ' ' || (i % 500))),
          'to', jsonb_build_array(jsonb_build_object('email', 'me@mailroom.test', 'name', ''))),
        left(s.body || ' ' || repeat('lorem ipsum dolor sit amet ', 8), 200),
        i % 10 < 7, i % 50 = 0,
        case when i % 20 = 0 then ${aliasId}::bigint end,
        now() - make_interval(secs => (${count} - i) * 300 + (i * 37) % 250),
        i % 6 = 0
      from generate_series(${from}::int, ${to}::int) as i
      cross join lateral (
        select (array['Invoice for March', 'Счёт за март', 'Meeting notes', 'Встреча в пятницу', 'Your order has shipped',
                      'Платёж получен', 'Weekly report', 'Отчёт за неделю'])[1 + i % 8] as subject,
               (array['example.com', 'пример.рф', 'mail.example.org', 'shop.example.net'])[1 + i % 4] as domain,
               (array['Anna', 'Иван', 'Bob', 'Мария', 'Chen'])[1 + i % 5] as name,
               (array['Please find the invoice attached.', 'Пожалуйста, посмотрите счёт во вложении.',
                      'Notes from today', 'Заметки со встречи'])[1 + i % 4] as body
      ) s
    `.execute(db);
  }
  // Bodies and search vectors, so a label's saved search has a real index to search (the list
  // itself never reads them). Words split on spaces and punctuation, under the field prefixes of
  // mail/search-vector.ts; close enough to its folding for these ASCII and Cyrillic texts.
  await sql`
    insert into message_contents (message_id, account_id, body_text, search_vector)
    select m.id, m.account_id, b.body, array_to_tsvector(array(
      select distinct p || w from (
        select 's:' as p, regexp_split_to_table(lower(m.subject), '[^[:alnum:]а-яё]+') as w
        union all select 'f:', regexp_split_to_table(lower(m.from_name || ' ' || m.from_email), '[^[:alnum:]а-яё]+')
        union all select 'b:', regexp_split_to_table(lower(b.body), '[^[:alnum:]а-яё]+')) t
      where w <> ''))
    from messages m
    cross join lateral (select left(m.preview, strpos(m.preview || ' lorem', ' lorem') - 1) as body) b
    where m.folder_id = ${folderId} and m.account_id = ${accountId}
  `.execute(db);
  await sql`
    update folders f set uidnext = ${count + 1}, total_count = c.total, unread_count = c.unread
    from (select count(*)::int as total, count(*) filter (where not seen)::int as unread
          from messages where folder_id = ${folderId}) c
    where f.id = ${folderId}
  `.execute(db);
}

async function timeIt(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  for (let i = 0; i < Math.min(50, runs); i++) await fn(); // warm caches and plans
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

export async function runListBench(opts: {
  databaseUrl?: string;
  messages: 10_000 | 100_000 | number;
}): Promise<BenchRow[]> {
  const postgres = Boolean(opts.databaseUrl);
  const db = postgres
    ? await openDatabase({ kind: 'postgres', url: opts.databaseUrl! })
    : await openDatabase({
        kind: 'pglite-instance',
        pglite: await PGlite.create({ extensions: pgliteExtensions }),
      });
  try {
    await migrate(db);
    // A fresh account per run: the runner measures 10k and 100k in one database.
    const memberId = `9${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`;
    const { account } = await ensureAccount(db, {
      memberId,
      name: 'Bench User',
      mailDomain: 'mailroom.test',
    });
    const alias = await db
      .insertInto('aliases')
      .values({ account_id: account.id, email: `bench-alias-${memberId}@mailroom.test` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const inbox = (await systemFolder(db, account.id, 'inbox')).id;
    const sent = (await systemFolder(db, account.id, 'sent')).id;
    const inInbox = Math.round(opts.messages * 0.9);
    await fillFolder(db, account.id, inbox, inInbox, alias.id, account.id * 10_000_000);
    await fillFolder(db, account.id, sent, opts.messages - inInbox, alias.id, account.id * 10_000_000);
    // No maintenance of the bench's own: the product's upkeep pass (what the server runs every minute on PGlite;
    // the same rules autovacuum applies on PostgreSQL with its defaults).
    await upkeepDatabase(db);

    const setSettings = (s: Record<string, unknown>) =>
      sql`update accounts set settings = settings || ${JSON.stringify(s)}::jsonb where id = ${account.id}`.execute(
        db,
      );
    const page = (query: Partial<ListQuery>) => () =>
      listFolderMessages(db, { accountId: account.id, aliasEmail: null }, inbox, {
        a_id: 'all',
        page: 1,
        ...query,
      });
    const target = postgres ? '≤ 5 ms' : '≤ 25 ms';
    const limit = postgres ? 5 : 25;
    const size = `${opts.messages / 1000}k`;
    const rows: BenchRow[] = [];
    const measure = async (name: string, fn: () => Promise<unknown>, withTarget = true) => {
      const times = await timeIt(fn, 200);
      const p50 = quantile(times, 0.5);
      rows.push({
        name: `folder page (30), ${size} mailbox: ${name}`,
        value: p50,
        unit: 'ms p50',
        target: withTarget ? target : '—',
        ...(withTarget ? { ok: p50 <= limit } : {}),
        note: `p95 ${quantile(times, 0.95).toFixed(2)} ms`,
      });
    };

    await setSettings({ per_page: 30, unread_first: false, message_thread: false });
    // Warm the JIT, the pool and the database's caches before the first measured case.
    for (let i = 0; i < 200; i++) await page({})();
    await measure('first page', page({}));
    await measure('page 100', page({ page: 100 }), false);
    await measure('alias view', page({ a_id: alias.id }), false);
    await setSettings({ unread_first: true });
    await measure('unread first', page({}));
    await setSettings({ unread_first: false, message_thread: true });
    await measure('chains (message_thread)', page({}), false);
    // Since 2026-11-23 a page also asks each label's saved search which of its rows it finds.
    await setSettings({ message_thread: false });
    await db
      .insertInto('labels')
      .values([
        { account_id: account.id, name: 'Invoices', search_field: 'subject', search_content: 'invoice' },
        { account_id: account.id, name: 'Notes', search_field: 'body', search_content: 'заметки' },
        { account_id: account.id, name: 'Shop', search_field: 'from', search_content: 'shop.example' },
      ])
      .execute();
    await measure('3 labels with saved searches', page({}), false);
    return rows;
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const messages = Number(process.argv[2] ?? 10_000);
  const rows = await runListBench({ messages, ...(process.argv[3] ? { databaseUrl: process.argv[3] } : {}) });
  for (const r of rows)
    console.log(`${r.name}: ${r.value.toFixed(2)} ${r.unit} (target ${r.target}; ${r.note})`);
}
