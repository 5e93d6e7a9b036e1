import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { SenderEntry, SendersAdd } from '@mailroom/protocol';
import { folder } from '../../test/fixtures';
import { fakeApi } from '../../test/fake-api';
import { renderAt, setUpScreenTests } from '../../test/render-app';

setUpScreenTests();

/** Settings › Spam (issue 30): the allow and block lists of senders. */
function serve(initial: SenderEntry[] = []) {
  let senders = initial;
  return fakeApi(
    {
      senders: () => ({ senders }),
      addSenders: ({ body }) => {
        const { list, entries } = body as SendersAdd;
        senders = [
          ...entries.map((entry) => ({
            entry: entry.trim().toLowerCase(),
            list,
            created_at: '2026-11-29T10:00:00Z',
          })),
          ...senders,
        ];
        return { senders, added: entries.length };
      },
      deleteSender: ({ query }) => {
        senders = senders.filter((s) => s.entry !== query.entry);
        return { ok: true };
      },
    },
    { shell: { folders: [folder(11, 'INBOX', 'inbox')] } },
  );
}

describe('settings/spam', () => {
  it('lists the senders, adds one to the block list and removes one', async () => {
    const api = serve([{ entry: 'boss@example.org', list: 'allow', created_at: '2026-11-28T10:00:00Z' }]);
    renderAt('/settings/spam');
    const list = await screen.findByRole('list', { name: 'Allowed and blocked senders' }, { timeout: 5_000 });
    expect(within(list).getByText('boss@example.org')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Address or domain'), { target: { value: 'Spam.Example' } });
    fireEvent.change(screen.getByLabelText('List'), { target: { value: 'block' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await within(list).findByText('spam.example')).toBeTruthy();
    expect(api.callsTo('addSenders').map((c) => c.body)).toEqual([
      { list: 'block', entries: ['Spam.Example'] },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove boss@example.org' }));
    await screen.findByText('spam.example');
    expect(api.callsTo('deleteSender').map((c) => c.query.entry)).toEqual(['boss@example.org']);
  });

  it('says what is wrong with an entry that is neither an address nor a domain, and sends nothing', async () => {
    const api = serve();
    renderAt('/settings/spam');
    await screen.findByText('No senders are allowed or blocked yet.', undefined, { timeout: 5_000 });
    fireEvent.change(screen.getByLabelText('Address or domain'), { target: { value: 'not a domain' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/address .* or a domain/);
    expect(api.callsTo('addSenders')).toEqual([]);
  });
});
