import { describe, expect, it } from 'vitest';
import {
  canRunSearch,
  emptySearchForm,
  parseSearchParams,
  searchDate,
  searchPath,
  searchRequest,
  toggleField,
} from './search-model';

describe('advanced search validation (SPEC §5)', () => {
  it('keeps at least one of subject, body and sender selected', () => {
    const onlyBody = { ...emptySearchForm, subject: false, body: true, sender: false };
    expect(toggleField(onlyBody, 'body')).toBe(onlyBody);
    const both = toggleField(onlyBody, 'subject');
    expect(both).toMatchObject({ subject: true, body: true });
    expect(toggleField(both, 'body')).toMatchObject({ subject: true, body: false, sender: false });
  });

  it('does nothing for an empty search over all folders', () => {
    expect(canRunSearch({ ...emptySearchForm, allFolders: true, text: '   ' })).toBe(false);
    expect(canRunSearch({ ...emptySearchForm, allFolders: true, text: 'x', from: '01.01.2025' })).toBe(true);
    expect(canRunSearch({ ...emptySearchForm, allFolders: true, from: '01.01.2025' })).toBe(false);
    expect(canRunSearch({ ...emptySearchForm, text: 'invoice' })).toBe(true);
    expect(canRunSearch({ ...emptySearchForm, from: '01.01.2025' })).toBe(true);
    expect(canRunSearch({ ...emptySearchForm, text: 'x', from: '2025-01-01' })).toBe(false);
  });

  it('turns dd.MM.yyyy into the start or the end of the day in UTC', () => {
    expect(searchDate('05.03.2025', 'start')).toBe('2025-03-05T00:00:00Z');
    expect(searchDate('05.03.2025', 'end')).toBe('2025-03-05T23:59:59Z');
    expect(searchDate('31.02.2025', 'start')).toBeNull();
    expect(searchDate('5.3.2025', 'start')).toBeNull();
  });
});

describe('search request', () => {
  it('sends the text with every ticked field, the folder and both dates for the current folder', () => {
    const form = { ...emptySearchForm, text: ' hello ', sender: false, from: '01.02.2025', to: '03.02.2025' };
    expect(searchRequest(form, 11, 2)).toEqual({
      page: 2,
      limit: 20,
      folder_id: 11,
      text: 'hello',
      fields: ['subject', 'body'],
      date: { since: '2025-02-01T00:00:00Z', before: '2025-02-03T23:59:59Z' },
    });
  });

  it('omits the folder and the dates for all folders; subject and sender both looked in', () => {
    const form = {
      ...emptySearchForm,
      text: 'hi',
      allFolders: true,
      body: false,
      subject: true,
      sender: true,
      from: '01.02.2025',
    };
    expect(searchRequest(form, 11, 1)).toEqual({
      page: 1,
      limit: 20,
      text: 'hi',
      fields: ['subject', 'from'],
    });
    expect(searchRequest({ ...form, subject: false }, 11, 1)).toEqual({
      page: 1,
      limit: 20,
      text: 'hi',
      fields: ['from'],
    });
    expect(searchRequest({ ...form, subject: false, sender: false, body: true }, 11, 1)).toEqual({
      page: 1,
      limit: 20,
      text: 'hi',
      fields: ['body'],
    });
  });

  it('round-trips through the search route with the word false for empty parts', () => {
    const form = { ...emptySearchForm, text: 'a/b c', from: '01.02.2025' };
    const path = searchPath('all', 11, null, 1, form);
    expect(path).toBe('/mail/search/all/11/false/1/a%2Fb%20c/false/true/true/true/01.02.2025/false');
    const [, , , a_id, f_id, l_id, page, search_text, all_folder, subject, text, sender, from, to] =
      path.split('/');
    const parsed = parseSearchParams({
      a_id,
      f_id,
      l_id,
      page,
      search_text: decodeURIComponent(search_text!),
      all_folder,
      subject,
      text,
      sender,
      from,
      to,
    });
    expect(parsed).toEqual({ form, folderId: 11, labelId: null });
  });
});

describe('select-all in search results', () => {
  it('acts on the search, with the alias view, not on the folder searched in', async () => {
    const { bulkRequest } = await import('../mail/queries');
    const search = { ...emptySearchForm, text: 'invoice', subject: true, body: false, sender: false };
    expect(bulkRequest({ kind: 'search', id: 11, aliasId: '4', page: 1, limit: 20, search })).toEqual({
      page: 1,
      limit: 20,
      folder_id: 11,
      text: 'invoice',
      fields: ['subject'],
      alias_id: 4,
    });
  });
});
