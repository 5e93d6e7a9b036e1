/**
 * Full-text search latency (DESIGN.md §5: subject + body on 100,000 messages, p50 ≤ 50 ms).
 * The corpus is inserted with plain SQL in batches (no SMTP, no MIME parsing), but its search
 * vectors are built by the same `searchVectorSql` storeMessage uses, so the index is the real
 * one: English and Russian words with a skewed (Zipf-like) frequency, varied senders, a few
 * folders. Measured is `searchMessages`, the service behind POST messages/search: the page
 * query, the count and row mapping, without HTTP.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/search.ts [messages] [databaseUrl]
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import type { MessageQuery } from '@mailroom/protocol';
import { migrate, openDatabase, upkeepDatabase, type Db } from '../apps/server/src/core/db/index.js';
import { pgliteExtensions } from '../apps/server/src/core/db/pglite-open.js';
import { ensureAccount } from '../apps/server/src/accounts/index.js';
import { systemFolder } from '../apps/server/src/mailbox/index.js';
import { searchVectorSql } from '../apps/server/src/mailbox/search-vector.js';
import { searchMessages } from '../apps/server/src/mail/search.service.js';
import type { BenchRow } from './types.js';

const english = `invoice payment order shipped meeting notes report weekly project budget contract delivery
  customer account password security update release version server database backup schedule holiday
  travel ticket hotel flight dinner lunch team review design proposal draft final approved urgent
  question answer support request issue fixed deadline tomorrow today friday monday summary quarter`.split(
  /\s+/,
);
const russian = `счёт платёж платежи заказ доставка встреча заметки отчёт неделя проект бюджет договор клиент
  пароль безопасность обновление версия сервер база резервная копия расписание отпуск поездка билет
  гостиница рейс обед команда обзор дизайн предложение черновик согласовано срочно вопрос ответ
  поддержка заявка исправлено срок завтра сегодня пятница понедельник итоги квартал оплата квитанция`.split(
  /\s+/,
);
const senders = ['Anna', 'Иван', 'Bob', 'Мария', 'Chen', 'Ольга', 'Dmitri', 'Sara'];
const domains = ['example.com', 'shop.example.net', 'mail.example.org', 'bank.example.ru', 'пример.рф'];

/** A deterministic generator (mulberry32, exact in 32-bit integers), so every run searches the same corpus. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The rest of the language: 6,000 made-up words, Latin and Cyrillic, used with a Zipf-like skew. */
const filler = (() => {
  const next = random(3);
  const latin = 'ba ke lo mi nu ra se ti vo za de fi go hu pa'.split(' ');
  const cyrillic = 'ба ке ло ми ну ра се ти во за де фи го ху па'.split(' ');
  return Array.from({ length: 6000 }, (_, i) => {
    const syllables = i % 2 ? cyrillic : latin;
    return Array.from({ length: 2 + Math.floor(next() * 3) }, () => syllables[Math.floor(next() * 15)]).join(
      '',
    );
  });
})();

/** A message is about one topic (real words, each in a few % of the mail) amid filler. */
function words(next: () => number, count: number): string {
  const out: string[] = [];
  // Bilingual mail: an English topic word and its Russian counterpart travel together.
  const k = Math.floor(next() * english.length);
  const topic = [english[k]!, russian[k % russian.length]!];
  for (let i = 0; i < count; i++) {
    const r = next();
    if (r < 0.08) out.push(topic[i % 2]!);
    else if (r < 0.09) out.push(`code${Math.floor(next() * 1e6)}`);
    else out.push(filler[Math.floor(filler.length * next() ** 3)]!);
  }
  return out.join(' ');
}

async function fill(db: Db, accountId: number, folders: number[], count: number) {
  const next = random(7);
  const uids = new Map(folders.map((f) => [f, 1]));
  const BATCH = 500;
  for (let done = 0; done < count; done += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - done) }, (_, k) => {
      const i = done + k;
      const folder = folders[next() < 0.8 ? 0 : 1 + Math.floor(next() * (folders.length - 1))]!;
      const uid = uids.get(folder)!;
      uids.set(folder, uid + 1);
      const name = senders[i % senders.length]!;
      const email = `${name.toLowerCase()}${i % 300}@${domains[i % domains.length]}`;
      return {
        folder,
        uid,
        subject: `${english[i % english.length]} ${words(next, 2 + Math.floor(next() * 4))}`,
        from: { name, email },
        body: words(next, 40 + Math.floor(next() * 120)),
        receivedAt: new Date(Date.UTC(2026, 0, 1) + i * 300_000),
      };
    });
    const ids = await db
      .insertInto('messages')
      .values(
        batch.map((m) => ({
          account_id: accountId,
          folder_id: m.folder,
          uid: m.uid,
          blob_hash: `bench${m.folder}-${m.uid}`,
          size: 1000 + m.body.length,
          subject: m.subject,
          from_email: m.from.email,
          from_name: m.from.name,
          addresses: JSON.stringify({ from: [m.from], to: [{ name: '', email: 'me@mailroom.test' }] }),
          preview: m.body.slice(0, 200),
          seen: m.uid % 3 !== 0,
          received_at: m.receivedAt,
        })),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('message_contents')
      .values(
        batch.map((m, k) => ({
          message_id: ids[k]!.id,
          account_id: accountId,
          body_text: m.body,
          search_vector: searchVectorSql({
            subject: m.subject,
            from: [m.from],
            to: [{ name: '', email: 'me@mailroom.test' }],
            body: m.body,
          }),
        })),
      )
      .execute();
  }
  for (const [folder, uidnext] of uids)
    await sql`update folders set uidnext = ${uidnext}, total_count = ${uidnext - 1} where id = ${folder}`.execute(
      db,
    );
}

async function timeIt(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  for (let i = 0; i < 10; i++) await fn(); // warm caches and plans
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

export async function runSearchBench(opts: { databaseUrl?: string; messages: number }): Promise<BenchRow[]> {
  const db = opts.databaseUrl
    ? await openDatabase({ kind: 'postgres', url: opts.databaseUrl })
    : await openDatabase({
        kind: 'pglite-instance',
        pglite: await PGlite.create({ extensions: pgliteExtensions }),
      });
  try {
    await migrate(db);
    const { account } = await ensureAccount(db, {
      memberId: '900000000002',
      name: 'Search Bench',
      mailDomain: 'mailroom.test',
    });
    const folders = await Promise.all(
      (['inbox', 'sent', 'trash'] as const).map(async (s) => (await systemFolder(db, account.id, s)).id),
    );
    await fill(db, account.id, folders, opts.messages);
    // The product's upkeep pass, not a maintenance of the bench's own (see list.ts).
    await upkeepDatabase(db);

    const size = `${opts.messages / 1000}k`;
    const rows: BenchRow[] = [];
    const measure = async (name: string, query: Partial<MessageQuery>, withTarget = true) => {
      let total = 0;
      const times = await timeIt(async () => {
        total = (
          await searchMessages(
            db,
            { accountId: account.id, aliasEmail: null },
            { page: 1, limit: 20, ...query },
          )
        ).total;
      }, 50);
      const p50 = quantile(times, 0.5);
      rows.push({
        name: `search, ${size} messages: ${name}`,
        value: p50,
        unit: 'ms p50',
        target: withTarget ? '≤ 50 ms' : '—',
        ...(withTarget ? { ok: p50 <= 50 } : {}),
        note: `p95 ${quantile(times, 0.95).toFixed(1)} ms, ${total} matches`,
      });
    };
    await measure('frequent English word', { text: 'invoice' });
    await measure('Russian prefix (платеж)', { text: 'платеж' });
    await measure('two words, both languages', { text: 'payment платеж' });
    await measure('rare word (prefix)', { text: 'code42' });
    await measure('subject only', { subject: 'report' });
    await measure('one folder + date range', {
      text: 'order',
      folder_id: folders[0]!,
      date: { since: '2026-02-01', before: '2026-03-31' },
    });
    await measure('sender address piece', { from: 'shop.exa' }, false);
    return rows;
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const messages = Number(process.argv[2] ?? 10_000);
  const rows = await runSearchBench({
    messages,
    ...(process.argv[3] ? { databaseUrl: process.argv[3] } : {}),
  });
  for (const r of rows)
    console.log(`${r.name}: ${r.value.toFixed(2)} ${r.unit} (target ${r.target}; ${r.note})`);
}
