import { uncheckedTrust } from '@mailroom/protocol';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { AccessResponse, Account, ContactInput, KnownResponse, Mail } from '@mailroom/protocol';
import { folder, listItem, testAccount, testUser } from '../../test/fixtures';
import { answerEach, contactRoutes, fakeApi, mailActionRoutes } from '../../test/fake-api';
import { renderAt, setUpScreenTests } from '../../test/render-app';
import { splitDisplayName } from './contacts-model';

setUpScreenTests();

const folders = [folder(11, 'INBOX', 'inbox', { total: 1 })];
const sender = { name: 'Oleg Petrov', email: 'oleg@example.org' };

function serve(known: KnownResponse, options: { user?: AccessResponse; account?: Account } = {}) {
  const row = listItem(4, { fields: { ...listItem(4).fields, from: [sender] } });
  const { calls } = fakeApi(
    {
      ...answerEach(mailActionRoutes, { ok: true }),
      folderMessages: ({ params }) =>
        params.folder_id === '11' ? { messages: [row], total: 1, all: 1 } : undefined,
      message: ({ params, query }) => {
        if (params.folder_id !== '11' || params.uid !== '4') return { ok: true };
        const message: Mail = {
          ...row,
          content: btoa('<p>Hi <img src="https://img.example/x.png"></p>'),
          content_type: 'text/html',
          attachments: [],
          images_blocked: query.show_images !== 'true',
          message_id: null,
          trust: uncheckedTrust,
        };
        return { message };
      },
      knownContact: () => known,
      createContact: ({ body }) => {
        const input = body as ContactInput;
        known = { ...known, contact_id: 9 };
        return {
          contact: {
            id: 9,
            name: input.name,
            surname: input.surname ?? '',
            email: input.emails![0]!,
            emails: input.emails,
            phone: '',
            birthday: null,
            notes: '',
            groups: [],
          },
        };
      },
    },
    { shell: { folders, user: options.user, account: options.account } },
  );
  return calls;
}

describe("the reader's sender as a contact", () => {
  it('offers to add a sender who is not a contact, splitting the name, and then shows it is one', async () => {
    const calls = serve({ contact_id: null, written_to: false });
    renderAt('/mail/folder/all/11/1/4');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Add Oleg Petrov to contacts' }, { timeout: 5_000 }),
    );
    await screen.findByText('In contacts');
    expect(calls.filter((c) => c.route === 'createContact').map((c) => c.body)).toEqual([
      { name: 'Oleg', surname: 'Petrov', emails: ['oleg@example.org'] },
    ]);
    expect(calls.some((c) => c.route === 'knownContact' && c.query.email === 'oleg@example.org')).toBe(true);
    expect(screen.queryByRole('button', { name: /to contacts/ })).toBeNull();
  });

  it('shows a contact as one, with nothing to add', async () => {
    serve({ contact_id: 3, written_to: true });
    renderAt('/mail/folder/all/11/1/4');
    await screen.findByText('In contacts', undefined, { timeout: 5_000 });
    expect(screen.queryByRole('button', { name: /to contacts/ })).toBeNull();
  });

  it('asks nothing for an alias-only session, which has no contacts (SPEC §6)', async () => {
    const calls = serve(
      { contact_id: null, written_to: false },
      {
        user: { ...testUser, info: { alias: 'ann.alias@mailroom.test' } },
        account: { ...testAccount(), aliases: [{ id: 21, email: 'ann.alias@mailroom.test' }] },
      },
    );
    renderAt('/mail/folder/21/11/1/4');
    await screen.findByRole('article', { name: 'Message' }, { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      calls.some((c) => c.route === 'message' && c.params.folder_id === '11' && c.params.uid === '4'),
    ).toBe(true);
    expect(calls.filter((c) => contactRoutes.includes(c.route))).toEqual([]);
  }, 10_000);
});

describe('a display name as name and surname', () => {
  it.each([
    ['Oleg Petrov', { name: 'Oleg', surname: 'Petrov' }],
    ['Petrov, Oleg', { name: 'Oleg', surname: 'Petrov' }],
    ['Anna Maria  Lee', { name: 'Anna Maria', surname: 'Lee' }],
    ['Cher', { name: 'Cher', surname: '' }],
    ['', { name: 'oleg', surname: '' }],
    ['oleg@example.org', { name: 'oleg', surname: '' }],
  ])('%s', (display, expected) => {
    expect(splitDisplayName(display, 'oleg@example.org')).toEqual(expected);
  });
});
