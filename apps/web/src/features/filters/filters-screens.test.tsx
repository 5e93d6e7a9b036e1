import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccessResponse, Filter, FiltersResponse, FiltersSaveRequest } from '@mailroom/protocol';
import { apiError, folder, testUser } from '../../test/fixtures';
import { fakeApi } from '../../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../../test/render-app';

setUpScreenTests();

const folders = [
  folder(11, 'INBOX', 'inbox'),
  { ...folder(12, 'INBOX.Invoices', null), subfolders: [] },
  folder(13, 'INBOX.Trash', 'trash'),
];
const labels = [
  {
    id: 7,
    name: 'Finance',
    color: '#336699',
    search_field: 'body' as const,
    search_content: 'x',
    folder_id: null,
  },
];
const billsRule =
  'if allof (address :contains "from" "billing@shop.example")\n{\n\taddflag "\\\\Seen";\n\tfileinto "INBOX.Invoices";\n}';
const spamRule = 'if header :contains "subject" "[SPAM]" { discard; stop; }';

function filtersAnswer(filters: Filter[], version = 3): FiltersResponse {
  return { sieve_filter: { filters, script: '', version, errors: [] } };
}

/** The API the screens talk to, answering from `filters`, and the bodies of the saves it got. */
function serve(filters: Filter[], save?: (body: FiltersSaveRequest) => Response, user?: AccessResponse) {
  const saves: FiltersSaveRequest[] = [];
  const empty = { messages: [], total: 0, all: 0 };
  fakeApi(
    {
      saveFilters: ({ body: sent }) => {
        const body = sent as FiltersSaveRequest;
        saves.push(body);
        if (save) return save(body);
        const next = (body.filters ?? []).map((f, i) => ({
          id: i + 1,
          name: f.name,
          rules: f.rules,
          enabled: f.enabled ?? true,
        }));
        return filtersAnswer(next, 4);
      },
      filters: filtersAnswer(filters),
      validateFilter: { errors: [] },
      folderMessages: empty,
      labelMessages: empty,
      searchMessages: empty,
    },
    { shell: { folders, labels, ...(user ? { user } : {}) } },
  );
  return saves;
}

const bills: Filter = { id: 1, name: 'Bills', rules: billsRule, enabled: true };
const spam: Filter = { id: 2, name: 'Spam', rules: spamRule, enabled: true };

describe('the filters screens', () => {
  it('a rule the builder wrote reopens in the builder, and saving sends the whole list in order', async () => {
    const saves = serve([bills, spam]);
    renderAt('/settings/filters/edit/1');
    const action2 = await screen.findByRole('listitem', { name: 'Action 2' }, { timeout: 5_000 });
    expect(within(action2).getByLabelText<HTMLSelectElement>('Folder').value).toBe('INBOX.Invoices');
    const condition = screen.getByRole('listitem', { name: 'Condition 1' });
    expect(within(condition).getByLabelText<HTMLInputElement>('Value').value).toBe('billing@shop.example');

    fireEvent.change(within(condition).getByLabelText('Value'), { target: { value: 'bills@shop.example' } });
    fireEvent.change(screen.getByLabelText('Filter name'), { target: { value: 'Shop bills' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/filters'));
    expect(saves).toEqual([
      {
        version: 3,
        filters: [
          { name: 'Shop bills', rules: billsRule.replace('billing@', 'bills@') + '\n', enabled: true },
          { name: 'Spam', rules: spamRule, enabled: true },
        ],
      },
    ]);
  });

  it('a rule written by hand opens as Sieve, not rewritten by the builder', async () => {
    serve([bills, spam]);
    renderAt('/settings/filters/edit/2');
    await screen.findByText(/This rule was written by hand/);
    expect(screen.queryByRole('listitem', { name: 'Condition 1' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit in the builder' }).hasAttribute('disabled')).toBe(true);
  });

  it('"create a filter from this message" starts from its sender and subject; an empty name is refused', async () => {
    const saves = serve([]);
    renderAt('/settings/filters/create?from=billing%40shop.example&subject=Invoice%20%2342');
    const first = await screen.findByRole('listitem', { name: 'Condition 1' });
    expect(within(first).getByLabelText<HTMLSelectElement>('Field').value).toBe('from');
    expect(within(first).getByLabelText<HTMLInputElement>('Value').value).toBe('billing@shop.example');
    const second = screen.getByRole('listitem', { name: 'Condition 2' });
    expect(within(second).getByLabelText<HTMLSelectElement>('Field').value).toBe('subject');
    expect(within(second).getByLabelText<HTMLInputElement>('Value').value).toBe('Invoice #42');

    fireEvent.change(screen.getByLabelText('Filter name'), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Please enter a filter name!');
    // No folder chosen for the move yet: said at the action, nothing sent.
    fireEvent.change(screen.getByLabelText('Filter name'), { target: { value: 'Bills' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Choose a folder.');
    expect(saves).toEqual([]);
  });

  it('the list shows each filter in one line under its name: what it looks for and what it does', async () => {
    const script: Filter = { id: 3, name: 'Hand-written', rules: 'if true { keep; }', enabled: true };
    serve([bills, spam, script]);
    renderAt('/settings/filters');
    const list = await screen.findByRole(
      'list',
      { name: 'Filters, in the order they run' },
      { timeout: 10_000 },
    );
    const row = (name: string) => within(list).getByRole('listitem', { name });
    expect(
      within(row('Bills')).getByText(
        'From contains “billing@shop.example” → Mark as read, Move to folder “INBOX.Invoices”',
      ),
    ).toBeTruthy();
    expect(within(row('Hand-written')).getByText('Written as a script')).toBeTruthy();
  });

  it('the list moves a filter down, switches one off and deletes one after a confirmation', async () => {
    const saves = serve([bills, spam]);
    renderAt('/settings/filters');
    const list = await screen.findByRole('list', { name: 'Filters, in the order they run' });
    fireEvent.click(within(list).getByRole('button', { name: 'Move Bills down' }));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]!.filters!.map((f) => f.name)).toEqual(['Spam', 'Bills']);

    fireEvent.click(await within(list).findByRole('switch', { name: 'Spam is on' }));
    await waitFor(() => expect(saves).toHaveLength(2));

    fireEvent.click(within(list).getByRole('button', { name: 'Delete Bills' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete the filter?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(saves).toHaveLength(3));
    expect(saves[2]!.filters).toHaveLength(1);
  });

  it('a save refused because the filters changed elsewhere says so', async () => {
    serve([bills], () => apiError(409, 'filters_changed'));
    renderAt('/settings/filters');
    const list = await screen.findByRole('list', { name: 'Filters, in the order they run' });
    fireEvent.click(within(list).getByRole('switch', { name: 'Bills is on' }));
    await screen.findByText('The filters were changed in another window: reload them and try again');
  });
});

describe("the filters screens in another member's mailbox", () => {
  const grantee: AccessResponse = {
    ...testUser,
    info: { alias: null, impersonator: { member_id: '210987654321', email: '210987654321@mailroom.test' } },
  };
  const note = /only its owner can add or change forwarding \(redirect\) and auto-replies/;

  it.each(['/settings/filters', '/settings/filters/edit/1', '/settings/filters?view=script'])(
    'say up front that only the owner sets up forwarding and auto-replies (%s)',
    async (path) => {
      serve([bills], undefined, grantee);
      renderAt(path);
      expect(await screen.findByText(note, {}, { timeout: 10_000 })).toBeTruthy();
      expect(screen.getByRole('note').textContent).toContain(testUser.email);
    },
  );

  it('the owner sees no such note', async () => {
    serve([bills]);
    renderAt('/settings/filters');
    expect(await screen.findByRole('link', { name: 'New filter' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByText(note)).toBeNull();
  });
});
