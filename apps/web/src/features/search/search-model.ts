import { SEARCH_PAGE_SIZE, type LabelSearchField } from '@mailroom/protocol';

/** The fields the advanced search looks in (SPEC §2): at least one stays selected (SPEC §5). */
export type SearchField = 'subject' | 'body' | 'sender';
export const SEARCH_FIELDS: readonly SearchField[] = ['subject', 'body', 'sender'];

/** What the search line and its advanced form hold; also what the search route encodes. */
export interface SearchForm {
  text: string;
  allFolders: boolean;
  subject: boolean;
  body: boolean;
  sender: boolean;
  /** dd.MM.yyyy or ''. */
  from: string;
  /** dd.MM.yyyy or ''. */
  to: string;
}

/** Every field is looked in until the user narrows it. */
export const emptySearchForm: SearchForm = {
  text: '',
  allFolders: false,
  subject: true,
  body: true,
  sender: true,
  from: '',
  to: '',
};

/** Turn a field on or off, but never the last one that is on (SPEC §5). */
export function toggleField(form: SearchForm, field: SearchField): SearchForm {
  const next = { ...form, [field]: !form[field] };
  if (!next.subject && !next.body && !next.sender) return form;
  return next;
}

/** dd.MM.yyyy to the start (T00:00:00Z) or end (T23:59:59Z) of that day; null when it is not a real date. */
export function searchDate(value: string, edge: 'start' | 'end'): string | null {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value.trim());
  if (!match) return null;
  const [, dd, mm, yyyy] = match;
  const day = Number(dd);
  const month = Number(mm);
  const year = Number(yyyy);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return `${yyyy}-${mm}-${dd}${edge === 'start' ? 'T00:00:00Z' : 'T23:59:59Z'}`;
}

/** A date field that has text but is not dd.MM.yyyy. */
export function isBadDate(value: string): boolean {
  return value.trim() !== '' && searchDate(value, 'start') === null;
}

/**
 * Whether submitting the form starts a search: searching all folders with empty text does nothing (SPEC §5), and
 * a malformed date (in the current folder, where dates count) stops it too.
 */
export function canRunSearch(form: SearchForm): boolean {
  if (form.allFolders) return form.text.trim() !== '';
  if (isBadDate(form.from) || isBadDate(form.to)) return false;
  return form.text.trim() !== '' || form.from.trim() !== '' || form.to.trim() !== '';
}

/** The body of POST /api/v1/messages/search; the server refuses unknown keys. */
export interface SearchRequest {
  page: number;
  limit: number;
  folder_id?: number;
  subject?: string;
  text?: string;
  /** Where the text is looked for: any of these fields may match. */
  fields?: LabelSearchField[];
  date?: { since?: string; before?: string };
}

/** The server's name of each field of the form (the sender is the From header). */
const REQUEST_FIELD: Record<SearchField, LabelSearchField> = {
  subject: 'subject',
  body: 'body',
  sender: 'from',
};

/**
 * The request for a form: the text is looked for in each ticked field, and only those. Dates only count in the
 * current folder (they are disabled for all folders).
 */
export function searchRequest(
  form: SearchForm,
  folderId: number | null,
  page: number,
  limit = SEARCH_PAGE_SIZE,
): SearchRequest {
  const request: SearchRequest = { page, limit };
  if (!form.allFolders && folderId !== null) request.folder_id = folderId;
  const q = form.text.trim();
  if (q) {
    request.text = q;
    request.fields = SEARCH_FIELDS.filter((field) => form[field]).map((field) => REQUEST_FIELD[field]);
  }
  if (!form.allFolders) {
    const since = searchDate(form.from, 'start');
    const before = searchDate(form.to, 'end');
    if (since || before) request.date = { ...(since ? { since } : {}), ...(before ? { before } : {}) };
  }
  return request;
}

const flag = (value: boolean) => (value ? 'true' : 'false');
const orFalse = (value: string) => (value.trim() ? encodeURIComponent(value.trim()) : 'false');

/**
 * The search route of SPEC §2:
 * /mail/search/{a_id}/{f_id}/{l_id}/{page}/{search_text}/{all_folder}/{subject}/{text}/{sender}/{from}/{to}.
 */
export function searchPath(
  aliasId: string,
  folderId: number | null,
  labelId: number | null,
  page: number,
  form: SearchForm,
): string {
  return [
    '/mail/search',
    aliasId,
    folderId ?? 'false',
    labelId ?? 'false',
    page,
    orFalse(form.text),
    flag(form.allFolders),
    flag(form.subject),
    flag(form.body),
    flag(form.sender),
    form.allFolders ? 'false' : orFalse(form.from),
    form.allFolders ? 'false' : orFalse(form.to),
  ].join('/');
}

function idOrNull(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** The route parameters of a search back into the form (app/router has decoded them, once). */
export function parseSearchParams(params: Record<string, string | undefined>): {
  form: SearchForm;
  folderId: number | null;
  labelId: number | null;
} {
  const text = (value: string | undefined) => (value && value !== 'false' ? value : '');
  const on = (value: string | undefined) => value === 'true';
  let form: SearchForm = {
    text: text(params.search_text),
    allFolders: on(params.all_folder),
    subject: on(params.subject),
    body: on(params.text),
    sender: on(params.sender),
    from: text(params.from),
    to: text(params.to),
  };
  if (!form.subject && !form.body && !form.sender)
    form = { ...form, subject: true, body: true, sender: true };
  return { form, folderId: idOrNull(params.f_id), labelId: idOrNull(params.l_id) };
}
