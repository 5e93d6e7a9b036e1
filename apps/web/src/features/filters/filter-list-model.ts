import type { Filter, FilterInput } from '@mailroom/protocol';
import type { BuilderRule } from '@mailroom/sieve';

/** The list as the save sends it: every filter in order, each with its name, rules and switch. */
export function filterInputs(filters: readonly Filter[]): FilterInput[] {
  return filters.map(({ name, rules, enabled }) => ({ name, rules, enabled }));
}

/** The list with one filter moved up (-1) or down (+1); the same list when it cannot move. */
export function moveFilter(filters: readonly Filter[], index: number, by: -1 | 1): FilterInput[] {
  const list = filterInputs(filters);
  const to = index + by;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return list;
  const [moved] = list.splice(index, 1);
  list.splice(to, 0, moved!);
  return list;
}

/** The list with one filter placed elsewhere (drag and drop). */
export function placeFilter(filters: readonly Filter[], from: number, to: number): FilterInput[] {
  const list = filterInputs(filters);
  if (from < 0 || from >= list.length || to < 0 || to >= list.length) return list;
  const [moved] = list.splice(from, 1);
  list.splice(to, 0, moved!);
  return list;
}

export function withoutFilter(filters: readonly Filter[], index: number): FilterInput[] {
  return filterInputs(filters).filter((_, at) => at !== index);
}

/** The list with one filter changed, or a new one at the end (index null). */
export function withFilter(
  filters: readonly Filter[],
  index: number | null,
  filter: FilterInput,
): FilterInput[] {
  const list = filterInputs(filters);
  if (index === null || index < 0 || index >= list.length) list.push(filter);
  else list[index] = filter;
  return list;
}

/** A new filter's name and rule, with From and Subject from "create a filter from this message". */
export function prefilledFilter(search: URLSearchParams): { name: string; rule: BuilderRule } {
  const from = search.get('from')?.trim() ?? '';
  const subject =
    search
      .get('subject')
      ?.trim()
      .replace(/[\r\n]+/g, ' ') ?? '';
  const conditions: BuilderRule['conditions'] = [];
  if (from) conditions.push({ field: 'from', op: 'contains', value: from, negate: false });
  if (subject) conditions.push({ field: 'subject', op: 'contains', value: subject, negate: false });
  return {
    name: from || subject,
    rule: {
      match: 'all',
      conditions: conditions.length
        ? conditions
        : [{ field: 'from', op: 'contains', value: '', negate: false }],
      actions: [{ type: 'move', folder: '' }],
    },
  };
}
