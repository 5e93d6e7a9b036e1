/** settings/filters and its children (SPEC §2: filters (create, edit/{id})). */
export const filtersPath = '/settings/filters';
/** The raw editor of the whole script: a view of the list's route. */
export const filtersScriptPath = `${filtersPath}?view=script`;
export const editFilterPath = (id: number) => `${filtersPath}/edit/${id}`;

/** settings/filters/create with From and Subject prefilled: "create a filter from this message". */
export function newFilterPath(prefill: { from?: string; subject?: string } = {}): string {
  const query = new URLSearchParams();
  if (prefill.from) query.set('from', prefill.from);
  if (prefill.subject) query.set('subject', prefill.subject);
  const search = query.toString();
  return `${filtersPath}/create${search ? `?${search}` : ''}`;
}
