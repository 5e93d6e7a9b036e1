import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  AccessResponse,
  Contact,
  ContactImportResponse,
  ContactInput,
  Group,
  GroupSummary,
  RouteName,
} from '@mailroom/protocol';
import { apiError, folder, testUser } from '../../test/fixtures';
import { contactRoutes, fakeApi, type FakeRequest } from '../../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../../test/render-app';
import { useCompose } from '../compose';
import { useNotices } from '../../ui/notices-store';
import { contactInput } from './contact-editor';

setUpScreenTests();

const folders = [folder(11, 'INBOX', 'inbox')];

function contact(
  id: number,
  name: string,
  surname: string,
  email: string,
  extra: Partial<Contact> = {},
): Contact {
  return {
    id,
    name,
    surname,
    email,
    emails: email ? [email] : [],
    phone: '',
    birthday: null,
    notes: '',
    groups: [],
    ...extra,
  };
}

interface Api {
  contacts: Contact[];
  groups: { id: number; name: string; members: number[] }[];
  /** Every request: its route, params, query, and the JSON body or the file. */
  calls: FakeRequest[];
  user?: AccessResponse;
  importAnswer?: ContactImportResponse;
  importPolls?: number;
  failContacts?: boolean;
}

const summary = (api: Api, group: Api['groups'][number]): GroupSummary => ({
  id: group.id,
  name: group.name,
  count: group.members.length,
});
const groupOf = (api: Api, group: Api['groups'][number]): Group => ({
  id: group.id,
  name: group.name,
  contacts: api.contacts.filter((c) => group.members.includes(c.id)),
});

/** The contacts API as the contract says, over an in-memory address book the test can look into. */
function serve(api: Api) {
  let nextId = 100;
  const groupById = ({ params }: FakeRequest) => {
    const group = api.groups.find((g) => g.id === Number(params.id));
    return group ? { group: groupOf(api, group) } : apiError(404, 'entity_not_found');
  };
  fakeApi(
    {
      folderMessages: ({ params }) =>
        params.folder_id === '11' ? { messages: [], total: 0, all: 0 } : undefined,
      contacts: ({ query }) => {
        if (api.failContacts) return apiError(500, 'internal_error');
        const search = query.search;
        const size = Number(query.size);
        const page = Number(query.page ?? 1);
        const matches = search
          ? api.contacts.filter((c) =>
              [c.name, c.surname, c.email].some((v) => v.toLowerCase().startsWith(search.toLowerCase())),
            )
          : api.contacts;
        return { contacts: matches.slice((page - 1) * size, page * size), total: matches.length };
      },
      createContact: ({ body }) => {
        const input = body as ContactInput;
        if (!input.name.trim()) return apiError(400, 'name_not_indicated');
        const created = contact(++nextId, input.name, input.surname ?? '', input.email ?? '', {
          emails: input.emails ?? [],
          phone: input.phone ?? '',
          birthday: input.birthday ?? null,
          notes: input.notes ?? '',
        });
        api.contacts.push(created);
        return { contact: created };
      },
      deleteContacts: ({ body }) => {
        const ids = (body as { ids: number[] }).ids;
        api.contacts = api.contacts.filter((c) => !ids.includes(c.id));
        return { ok: true };
      },
      importContacts: () => ({ ...api.importAnswer!, state: 'queued', total: 0, done: 0, added: 0 }),
      // The import runs as a job: read once while it runs, then done.
      contactImport: () => {
        api.importPolls = (api.importPolls ?? 0) + 1;
        return api.importPolls === 1
          ? { ...api.importAnswer!, state: 'running', total: 10, done: 4, added: 1 }
          : api.importAnswer;
      },
      groups: () => ({ groups: api.groups.map((g) => summary(api, g)) }),
      createGroup: ({ body }) => {
        const name = (body as { name: string }).name;
        if (api.groups.some((g) => g.name === name)) return apiError(400, 'group_already_exist');
        const group = { id: ++nextId, name, members: [] };
        api.groups.push(group);
        return { group: groupOf(api, group) };
      },
      groupMembers: ({ params, body }) => {
        const group = api.groups.find((g) => g.id === Number(params.id))!;
        const change = body as { add?: number[]; remove?: number[] };
        group.members = [
          ...group.members.filter((id) => !(change.remove ?? []).includes(id)),
          ...(change.add ?? []).filter((id) => !group.members.includes(id)),
        ];
        return { group: groupOf(api, group) };
      },
      group: groupById,
      updateGroup: groupById,
      deleteGroup: ({ params }) => {
        const group = api.groups.find((g) => g.id === Number(params.id));
        if (!group) return apiError(404, 'entity_not_found');
        api.groups = api.groups.filter((g) => g !== group);
        return { ok: true };
      },
    },
    {
      shell: { folders, user: api.user },
      onRequest: (request) => {
        api.calls.push(request);
        return undefined;
      },
    },
  );
}

const ann = contact(1, 'Анна', 'Петрова', 'anna@example.org', { phone: '+7 900 000-00-01' });
const bob = contact(2, 'Bob', 'Stone', 'bob@example.org');
const nobody = contact(3, 'No', 'Address', '');

/** The requests to one route. */
const requests = (api: Api, route: RouteName) => api.calls.filter((c) => c.route === route);
/** The requests of a method to any contacts or groups route. */
const contactCalls = (api: Api, method: string) =>
  api.calls.filter((c) => c.method === method && contactRoutes.includes(c.route));

describe('the contacts screen', () => {
  it('lists a page of 100 with its range and pages forward through the address', async () => {
    const many = Array.from({ length: 130 }, (_, i) =>
      contact(i + 1, `Name${i + 1}`, 'Same', `p${i + 1}@x.org`),
    );
    const api: Api = { contacts: many, groups: [], calls: [] };
    serve(api);
    renderAt('/contacts');
    const list = await screen.findByRole('list', { name: 'Contacts' }, { timeout: 5_000 });
    expect(within(list).getAllByRole('listitem')).toHaveLength(100);
    expect(screen.getByText('1–100 of 130')).toBeTruthy();
    expect(requests(api, 'contacts')[0]!.query).toEqual({ page: '1', size: '100' });
    fireEvent.click(screen.getByRole('link', { name: 'Next page' }));
    await screen.findByText('101–130 of 130');
    expect(currentPath()).toBe('/contacts?page=2');
    expect(within(screen.getByRole('list', { name: 'Contacts' })).getAllByRole('listitem')).toHaveLength(30);
    expect(screen.getByRole('link', { name: 'Next page' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('sends an alias-only session to the mail instead', async () => {
    const api: Api = {
      contacts: [ann],
      groups: [],
      calls: [],
      user: { ...testUser, info: { alias: 'ann.work@mailroom.test' } },
    };
    serve(api);
    renderAt('/contacts');
    await waitFor(() => expect(currentPath()).toMatch(/^\/mail/), { timeout: 5_000 });
    expect(contactCalls(api, 'GET')).toEqual([]);
  });

  it('searches as the user types, once the typing pauses, with the search page size of 1000', async () => {
    const api: Api = { contacts: [ann, bob, nobody], groups: [], calls: [] };
    serve(api);
    renderAt('/contacts');
    await screen.findByText('Анна Петрова', undefined, { timeout: 5_000 });
    const box = screen.getByRole('searchbox', { name: 'Search contacts' });
    fireEvent.change(box, { target: { value: 'П' } });
    fireEvent.change(box, { target: { value: 'Пе' } });
    await screen.findByText('Found: 1');
    const list = screen.getByRole('list', { name: 'Contacts' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    // One request for the settled text, not one per key.
    expect(
      requests(api, 'contacts')
        .filter((c) => c.query.size === '1000')
        .map((c) => c.query),
    ).toEqual([{ size: '1000', search: 'Пе' }]);
    fireEvent.change(box, { target: { value: 'zzz' } });
    await screen.findByText('No contacts found');
  });

  it('creates a contact: a missing name is refused with the catalogue text, several addresses, one primary', async () => {
    const api: Api = { contacts: [], groups: [], calls: [] };
    serve(api);
    renderAt('/contacts');
    await screen.findByText('No contacts yet', undefined, { timeout: 5_000 });
    fireEvent.click(screen.getAllByRole('button', { name: 'New contact' })[0]!);
    const sheet = await screen.findByRole('dialog', { name: 'New contact' });
    fireEvent.change(within(sheet).getByLabelText('Email address 1'), {
      target: { value: 'carol@home.org' },
    });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Create' }));
    await within(sheet).findByText("You didn't specify a name!");
    expect(contactCalls(api, 'POST')).toEqual([]);

    fireEvent.change(within(sheet).getByLabelText('Name'), { target: { value: ' Carol ' } });
    fireEvent.change(within(sheet).getByLabelText('Surname'), { target: { value: 'King' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Add an address' }));
    fireEvent.change(within(sheet).getByLabelText('Email address 2'), {
      target: { value: 'not an address' },
    });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Create' }));
    await within(sheet).findByText('Invalid email address');
    fireEvent.change(within(sheet).getByLabelText('Email address 2'), {
      target: { value: 'carol@work.org' },
    });
    fireEvent.click(within(sheet).getAllByRole('radio', { name: 'Primary' })[1]!);
    fireEvent.change(within(sheet).getByLabelText('Date of birth'), { target: { value: '1990-04-05' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New contact' })).toBeNull());
    expect(contactCalls(api, 'POST').map((c) => c.body)).toEqual([
      {
        name: 'Carol',
        surname: 'King',
        email: 'carol@work.org',
        emails: ['carol@work.org', 'carol@home.org'],
        phone: '',
        birthday: '1990-04-05',
        notes: '',
      },
    ]);
    await screen.findByRole('button', { name: 'Open Carol King' });
  });

  it('a refusal from the server is shown in the form, from the catalogue', async () => {
    const api: Api = { contacts: [], groups: [], calls: [] };
    serve(api);
    renderAt('/contacts?tab=groups');
    await screen.findByText('No groups yet', undefined, { timeout: 5_000 });
    api.groups.push({ id: 5, name: 'Team', members: [] });
    fireEvent.click(screen.getAllByRole('button', { name: 'New group' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New group' });
    fireEvent.change(within(dialog).getByLabelText('Group name'), { target: { value: 'Team' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await within(dialog).findByText('A group with this name already exists');
  });

  it('ticks contacts, adds them to a group and writes to them (with their names) in compose', async () => {
    const api: Api = {
      contacts: [ann, bob, nobody],
      groups: [{ id: 5, name: 'Team', members: [] }],
      calls: [],
    };
    serve(api);
    renderAt('/contacts');
    await screen.findByText('Анна Петрова', undefined, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all contacts on this page' }));
    expect(screen.getByText('Selected: 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select No Address' }));
    expect(screen.getByText('Selected: 2')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add to group' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Team' }));
    await waitFor(() => expect(api.groups[0]!.members).toEqual([1, 2]));

    fireEvent.click(screen.getByRole('button', { name: 'Write to' }));
    await waitFor(() => expect(currentPath()).toMatch(/^\/mail/));
    await waitFor(() =>
      expect(useCompose.getState().open?.to).toEqual([
        { name: 'Анна Петрова', email: 'anna@example.org' },
        { name: 'Bob Stone', email: 'bob@example.org' },
      ]),
    );
    useCompose.getState().closeCompose();
  });

  it('deletes the ticked contacts after a confirmation', async () => {
    const api: Api = { contacts: [ann, bob, nobody], groups: [], calls: [] };
    serve(api);
    renderAt('/contacts');
    await screen.findByText('Анна Петрова', undefined, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Bob Stone' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select No Address' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete contacts' });
    expect(within(confirm).getByText('Delete the selected contacts (2)?')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Bob Stone')).toBeNull());
    expect(requests(api, 'deleteContacts').map((c) => c.body)).toEqual([{ ids: [2, 3] }]);
    expect(screen.getByText('Анна Петрова')).toBeTruthy();
  });

  it('the groups tab lists groups with counts, opens one, takes a member out, writes to the group', async () => {
    const api: Api = { contacts: [ann, bob], groups: [{ id: 5, name: 'Team', members: [1, 2] }], calls: [] };
    serve(api);
    renderAt('/contacts');
    await screen.findByText('Анна Петрова', undefined, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('tab', { name: 'Groups' }));
    const groups = await screen.findByRole('list', { name: 'Groups' });
    expect(within(groups).getByText('Contacts: 2')).toBeTruthy();
    fireEvent.click(within(groups).getByRole('link', { name: /^Team/ }));
    expect(currentPath()).toBe('/contacts?tab=groups&group=5');
    const members = await screen.findByRole('list', { name: 'Contacts in Team' });
    fireEvent.click(within(members).getByRole('button', { name: 'Remove Bob Stone from Team' }));
    await waitFor(() => expect(within(members).queryByText('Bob Stone')).toBeNull());
    expect(api.groups[0]!.members).toEqual([1]);

    fireEvent.click(screen.getByRole('button', { name: 'Write to group' }));
    await waitFor(() =>
      expect(useCompose.getState().open?.to).toEqual([{ name: 'Анна Петрова', email: 'anna@example.org' }]),
    );
    expect(currentPath()).toMatch(/^\/mail\/folder\//);
    useCompose.getState().closeCompose();
  });

  it('imports a file as the request body, shows the job’s progress, then what was added, completed, left out and over the limit', async () => {
    const api: Api = {
      contacts: [],
      groups: [],
      calls: [],
      importAnswer: {
        id: 7,
        state: 'done',
        total: 10,
        done: 10,
        added: 2,
        updated: 1,
        unchanged: 4,
        groups_added: 1,
        skipped: [{ entry: 3, reason: 'no name and no address' }],
        skipped_count: 1,
        over_limit: 2,
        groups_over_limit: 0,
        error: null,
      },
    };
    serve(api);
    renderAt('/contacts');
    await screen.findByText('No contacts yet', undefined, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import contacts' });
    const file = new File(['BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n'], 'people.vcf');
    const picker = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    fireEvent.change(picker, { target: { files: [file] } });
    // The server answers at once; the import's progress is shown while its job runs.
    await within(dialog).findByText('4 of 10 entries');
    const result = await within(dialog).findByRole('status', { name: 'Import result' });
    const counts = Object.fromEntries(
      within(result)
        .getAllByRole('definition')
        .map((dd) => [dd.previousElementSibling!.textContent, dd.textContent]),
    );
    expect(counts).toEqual({
      Added: '2',
      Completed: '1',
      'Already there': '4',
      'Groups added': '1',
      'Left out': '1',
      'Not added: the address book is full': '2',
    });
    expect(
      within(result).getByText(
        '2 new contacts were not added because the address book is full. Delete contacts you do not need and import the file again.',
      ),
    ).toBeTruthy();
    expect(within(result).getByText('Entry 3: no name and no address')).toBeTruthy();
    const upload = requests(api, 'importContacts')[0]!;
    expect(upload.query).toEqual({});
    expect(upload.body).toBe(file);
    // The list behind it is read again.
    await waitFor(() => expect(requests(api, 'contacts').length).toBeGreaterThan(1));
  });

  it('says so when the contacts cannot be loaded, and tries again', async () => {
    const api: Api = { contacts: [ann], groups: [], calls: [], failContacts: true };
    serve(api);
    renderAt('/contacts');
    await screen.findByText('The contacts could not be loaded.', undefined, { timeout: 10_000 });
    api.failContacts = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('Анна Петрова');
    useNotices.setState({ queue: [] });
  }, 15_000);
});

describe('the body of a saved contact', () => {
  it('puts the primary address first and leaves empty rows out', () => {
    expect(
      contactInput({
        name: ' Ann ',
        surname: '',
        emails: ['', 'a@x.org', ' b@x.org '],
        primary: 2,
        phone: ' 1 ',
        birthday: '',
        notes: 'n',
      }),
    ).toEqual({
      name: 'Ann',
      surname: '',
      email: 'b@x.org',
      emails: ['b@x.org', 'a@x.org'],
      phone: '1',
      birthday: null,
      notes: 'n',
    });
  });
});
