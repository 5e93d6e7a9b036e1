import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { folder } from '../../test/fixtures';
import { fakeApi } from '../../test/fake-api';
import { renderAt, setUpScreenTests } from '../../test/render-app';

setUpScreenTests();

const folders = [folder(11, 'INBOX', 'inbox')];

function emptyServer() {
  const empty = { messages: [], total: 0, all: 0 };
  fakeApi({ folderMessages: empty, labelMessages: empty, searchMessages: empty }, { shell: { folders } });
}

describe('an empty list says what is empty', () => {
  it('a search that finds nothing says so, not that the folder has no messages', async () => {
    emptyServer();
    renderAt('/mail/search/all/11/false/1/sybil/false/false/true/false/false/false');
    expect(await screen.findByRole('heading', { name: 'No messages found' })).toBeTruthy();
    expect(screen.queryByText(/This folder has no messages/)).toBeNull();
  });

  it('an empty label says no message has the label, not that a folder is empty', async () => {
    emptyServer();
    renderAt('/mail/label/all/5/1');
    expect(await screen.findByRole('heading', { name: 'Nothing here' })).toBeTruthy();
    expect(screen.getByText(/No messages have this label/)).toBeTruthy();
    expect(screen.queryByText(/This folder has no messages/)).toBeNull();
  });

  it('an empty folder still says the folder is empty', async () => {
    emptyServer();
    renderAt('/mail/folder/all/11/1');
    expect(await screen.findByRole('heading', { name: 'Nothing here' })).toBeTruthy();
    expect(screen.getByText(/This folder has no messages/)).toBeTruthy();
  });
});
