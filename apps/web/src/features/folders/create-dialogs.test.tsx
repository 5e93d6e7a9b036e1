import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { Folder } from '@mailroom/protocol';
import { Providers } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { CreateFolderDialog, CreateLabelDialog } from './create-dialogs';
import { fakeApi, routeAndBody } from '../../test/fake-api';
import { folder, json } from '../../test/fixtures';

const folders: Folder[] = [folder(1, 'INBOX', 'inbox'), folder(7, 'INBOX.Work', null)];

/** Every write answered ok, recorded by route. */
function mockPost() {
  return fakeApi({}, { otherwise: () => json({ ok: true }) }).calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('creation dialogs', () => {
  it('creates a folder inside the chosen parent and closes', async () => {
    const bodies = mockPost();
    const onOpenChange = vi.fn();
    render(
      <Providers queryClient={createQueryClient()}>
        <CreateFolderDialog open onOpenChange={onOpenChange} folders={folders} />
      </Providers>,
    );
    fireEvent.change(screen.getByLabelText('Folder name'), { target: { value: '  Receipts ' } });
    fireEvent.change(screen.getByLabelText('Inside'), { target: { value: '7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(routeAndBody(bodies[0])).toEqual({
      route: 'createFolder',
      body: { folder: { name: 'Receipts', parent_id: 7 } },
    });
  });

  it('asks for a label name and search text before calling the server (SPEC §5)', async () => {
    const bodies = mockPost();
    render(
      <Providers queryClient={createQueryClient()}>
        <CreateLabelDialog open onOpenChange={() => {}} folders={folders} />
      </Providers>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getAllByText('Required')).toHaveLength(2);
    expect(bodies).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Label name'), { target: { value: 'Invoices' } });
    fireEvent.change(screen.getByLabelText('Messages containing'), { target: { value: 'invoice' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(routeAndBody(bodies[0])).toEqual({
        route: 'createLabel',
        body: {
          label: { name: 'Invoices', color: '#e66465', search_field: 'body', search_content: 'invoice' },
        },
      }),
    );
  });
});
