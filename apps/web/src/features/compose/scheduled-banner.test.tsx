import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Providers } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { apiError } from '../../test/fixtures';
import { fakeApi } from '../../test/fake-api';
import { useNotices } from '../../ui/notices-store';
import { useCompose } from './compose-store';
import ScheduledBanner from './scheduled-banner';

const sendAt = '2026-12-01T08:00:00+03:00';

function renderBanner(cancel: () => unknown = () => ({ draft: { folder_id: 4, uid: 55 } })) {
  const api = fakeApi(
    {
      scheduledSends: {
        scheduled: [
          { id: 8, folder_id: 30, uid: 2, purpose: 'later', send_at: '2026-12-01T00:00:00Z' },
          { id: 9, folder_id: 30, uid: 3, purpose: 'later', send_at: sendAt },
        ],
      },
      cancelScheduledSend: cancel,
      sendScheduledNow: { ok: true },
    },
    { otherwise: () => apiError(404, 'entity_not_found', 'Not found') },
  );
  const onDone = vi.fn();
  render(
    <Providers queryClient={createQueryClient()}>
      <ScheduledBanner message={{ folder_id: 30, uid: 3 }} onDone={onDone} />
    </Providers>,
  );
  return { api, onDone };
}

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => useCompose.getState().closeCompose());
  useNotices.setState({ queue: [] });
});

describe('the Scheduled banner', () => {
  it('says when the message goes (its own entry, by folder and uid); Edit cancels and opens the draft', async () => {
    const { api, onDone } = renderBanner();
    const banner = await screen.findByTestId('scheduled-banner');
    expect(banner.textContent).toContain('Will be sent');
    expect(banner.textContent).toContain(new Date(sendAt).getHours().toString().padStart(2, '0'));
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(api.callsTo('cancelScheduledSend')[0]!.params).toEqual({ id: '9' });
    expect(useCompose.getState().open).toMatchObject({ mode: 0, draft: { folder_id: 4, uid: 55 } });
  });

  it('Send now sends it; Cancel too late shows send_already_sent and keeps the banner', async () => {
    const { api, onDone } = renderBanner(() => apiError(409, 'send_already_sent', 'sent'));
    await screen.findByTestId('scheduled-banner');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel sending' }));
    await waitFor(() =>
      expect(useNotices.getState().queue.map((n) => n.text)).toEqual([
        'The message has already been sent: it can no longer be undone.',
      ]),
    );
    expect(onDone).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(api.callsTo('sendScheduledNow')[0]!.params).toEqual({ id: '9' });
  });
});
