import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { folder, listItem } from '../../test/fixtures';
import { fakeApi } from '../../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../../test/render-app';

const folders = [folder(11, 'INBOX', 'inbox', { total: 1 })];

const item = (uid: number, subject: string) =>
  listItem(uid, {
    subject,
    fields: { from: [{ name: 'Bob', email: 'bob@example.test' }], to: [], cc: [], bcc: [], 'reply-to': [] },
    preview: '',
  });

function mockServer() {
  const searches: unknown[] = [];
  fakeApi(
    {
      searchMessages: ({ body }) => {
        searches.push(body);
        return { messages: [item(7, 'Found it')], total: 1, all: 1 };
      },
      folderMessages: ({ params }) =>
        params.folder_id === '11' ? { messages: [item(1, 'In the inbox')], total: 1, all: 1 } : undefined,
    },
    { shell: { folders } },
  );
  return searches;
}

const path = currentPath;

/** jsdom has no matchMedia: answer width queries as a browser window `width` px wide would. */
function viewportWidth(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const matches = (!max || width <= Number(max[1])) && (!min || width >= Number(min[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    };
  });
}

setUpScreenTests();

describe('search line', () => {
  it('searches the current folder with the dates, shows the results and Escape goes back', async () => {
    const searches = mockServer();
    renderAt('/mail/folder/all/11/1');
    const input = await screen.findByRole('searchbox', { name: 'Search mail' });
    fireEvent.change(input, { target: { value: 'hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Advanced search' }));
    // The advanced form is its own chunk: it appears once loaded.
    fireEvent.change(await screen.findByRole('textbox', { name: 'Date from' }), {
      target: { value: '01.02.2025' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Date to' }), { target: { value: '03.02.2025' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    await waitFor(() =>
      expect(path()).toBe('/mail/search/all/11/false/1/hello/false/true/true/true/01.02.2025/03.02.2025'),
    );
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    await within(grid).findByText('Found it');
    expect(searches).toEqual([
      {
        page: 1,
        limit: 20,
        folder_id: 11,
        text: 'hello',
        fields: ['subject', 'body', 'from'],
        date: { since: '2025-02-01T00:00:00Z', before: '2025-02-03T23:59:59Z' },
      },
    ]);

    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search mail' }), { key: 'Escape' });
    await waitFor(() => expect(path()).toBe('/mail/folder/all/11/1'));
  });

  it('keeps one field checked, disables dates for all folders and ignores an empty all-folders search', async () => {
    const searches = mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('searchbox', { name: 'Search mail' });
    fireEvent.click(screen.getByRole('button', { name: 'Advanced search' }));

    // Every field is ticked at first; the last one left cannot be unticked.
    const body = await screen.findByRole('checkbox', { name: 'Body' });
    const subject = screen.getByRole('checkbox', { name: 'Subject' });
    fireEvent.click(subject);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Sender' }));
    expect((body as HTMLInputElement).checked).toBe(true);
    fireEvent.click(body);
    expect((body as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Sender' }));
    fireEvent.click(body);
    expect((body as HTMLInputElement).checked).toBe(false);

    fireEvent.click(screen.getByRole('radio', { name: 'All folders' }));
    expect((screen.getByRole('textbox', { name: 'Date from' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(path()).toBe('/mail/folder/all/11/1');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search mail' }), { target: { value: 'bob' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches).toEqual([{ page: 1, limit: 20, text: 'bob', fields: ['from'] }]));
    expect(path()).toBe('/mail/search/all/11/false/1/bob/true/false/false/true/false/false');
  });
  it('on a phone opens from its icon over the top bar, takes the focus, and Escape or the back arrow folds it', async () => {
    viewportWidth(390);
    mockServer();
    renderAt('/mail/folder/all/11/1');
    const toggle = await screen.findByRole('button', { name: 'Search mail' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('searchbox')).toBeNull();

    fireEvent.click(toggle);
    const input = await screen.findByRole('searchbox', { name: 'Search mail' });
    expect(document.activeElement).toBe(input);
    expect(screen.queryByRole('button', { name: 'Search mail' })).toBeNull();
    fireEvent.change(input, { target: { value: 'draft' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('searchbox')).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Search mail' })),
    );
    expect(path()).toBe('/mail/folder/all/11/1');

    // The back arrow folds it too; the advanced form is still there behind its button.
    fireEvent.click(screen.getByRole('button', { name: 'Search mail' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close the search line' }));
    expect(screen.queryByRole('searchbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Search mail' }));
    fireEvent.click(screen.getByRole('button', { name: 'Advanced search' }));
    expect(await screen.findByRole('textbox', { name: 'Date from' })).toBeTruthy();
  });

  it('on a phone runs a search from the opened line, and Escape there leaves search mode', async () => {
    viewportWidth(390);
    const searches = mockServer();
    renderAt('/mail/folder/all/11/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Search mail' }));
    const input = await screen.findByRole('searchbox', { name: 'Search mail' });
    fireEvent.change(input, { target: { value: 'hello' } });
    fireEvent.submit(screen.getByRole('search', { name: 'Mail search' }));
    await waitFor(() => expect(path()).toMatch(/^\/mail\/search\/all\/11\/false\/1\/hello\//));
    await within(await screen.findByRole('grid', { name: 'Messages' })).findByText('Found it');
    expect(searches).toHaveLength(1);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Search mail' })),
    );

    // The results have the whole bar; the folded icon opens the line with the search in it.
    fireEvent.click(screen.getByRole('button', { name: 'Search mail' }));
    const again = await screen.findByRole('searchbox', { name: 'Search mail' });
    expect((again as HTMLInputElement).value).toBe('hello');
    fireEvent.keyDown(again, { key: 'Escape' });
    await waitFor(() => expect(path()).toBe('/mail/folder/all/11/1'));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Search mail' })),
    );
  });
});
