/** One line of the benchmark table. `target` is the DESIGN.md §5 target as text; `ok` whether it is met. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  ok?: boolean;
  database?: 'PGlite' | 'PostgreSQL';
  note?: string;
  /** A timing's 95th percentile, when `value` is its median (issue 32 asks both). */
  p95?: number;
  /** The line of issue 32's table this row fills (`npm run bench` prints those lines together at the end). */
  figure?: Issue32Figure;
}

/** Issue 32's table, line by line: what the product must weigh and how fast it must be, in one run. */
export type Issue32Figure =
  | 'idle-empty'
  | 'rss-after-fill'
  | 'idle-after-restart'
  | 'ingest-vs-dovecot'
  | 'first-row-cold'
  | 'first-row-warm'
  | 'inbox-page'
  | 'search'
  | 'disk';
