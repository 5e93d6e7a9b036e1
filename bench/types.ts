/** One line of the benchmark table. `target` is the DESIGN.md §5 target as text; `ok` whether it is met. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  ok?: boolean;
  database?: 'PGlite' | 'PostgreSQL';
  note?: string;
}
