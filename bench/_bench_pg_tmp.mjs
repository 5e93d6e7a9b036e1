import pg from 'pg';
const name = 'mailroom_bench_fs_' + Date.now();
const a = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await a.connect(); await a.query('create database ' + name); await a.end();
const { runFiltersBench } = await import('/work/wt-fs/bench/filters.ts');
try {
  const rows = await runFiltersBench({ count: Number(process.argv[2] ?? 800), apply: Number(process.argv[3] ?? 5000), databaseUrl: 'postgres://postgres@127.0.0.1:5432/' + name });
  for (const r of rows) console.log(r.name + ': ' + r.value.toFixed(1) + ' ' + r.unit + ' (' + r.note + ')');
} finally {
  const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await c.connect(); await c.query('drop database if exists ' + name + ' with (force)'); await c.end();
}
