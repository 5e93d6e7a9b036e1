import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { answerShell, folder, json, notFound } from '../../test/fixtures';
import { renderAt, setUpScreenTests } from '../../test/render-app';

setUpScreenTests();

const folders = [folder(11, 'INBOX', 'inbox')];

function emptyServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      const shell = answerShell(url, { folders });
      if (shell) return shell;
      if (url.startsWith('/api/v1/messages')) return json({ messages: [], total: 0, all: 0 });
      return notFound();
    }),
  );
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
