import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { COMPOSE_MODE, uncheckedTrust, type Account, type Mail, type RouteName } from '@mailroom/protocol';
import { Providers } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { sessionQueries } from '../account/queries';
import { apiError, testAccount, testUser } from '../../test/fixtures';
import { fakeApi, type FakeRequest } from '../../test/fake-api';
import { NoticeBox } from '../../ui/notice-box';
import { useNotices } from '../../ui/notices-store';
import { useCompose, type ComposeRequestOpen } from './compose-store';
import ComposeWindow from './compose-window';
import { composeLiveHandler } from './live';
import { isoWithOffset, tomorrowMorning } from './send-later';

const account: Account = { ...testAccount({ undo_send_seconds: 10 }) };

/** The copy the cancelled send became, in Drafts (folder 4). */
const returnedDraft: Mail = {
  id: 77,
  uid: 77,
  folder_id: 4,
  subject: 'Plans',
  flags: { seen: true, flagged: false, draft: true },
  labels: [],
  fields: { from: [{ name: '', email: testUser.email }], to: [], cc: [], bcc: [], 'reply-to': [] },
  preview: '',
  has_attachments: false,
  encrypted: false,
  size: 10,
  created_at: '2026-11-20T10:00:00Z',
  thread_id: 77,
  content: btoa('<p>as the server has it</p>'),
  content_type: 'text/html',
  attachments: [],
  images_blocked: false,
  message_id: '<m77@example.org>',
  trust: uncheckedTrust,
};

interface Server {
  calls: FakeRequest[];
  scheduled?: { id: number; purpose: 'undo' | 'later'; send_at: string } | null;
  cancel?: () => unknown;
}

function renderCompose(request: ComposeRequestOpen, server: Server) {
  fakeApi(
    {
      sendMessage: () => ({
        message: { uid: 5, folder_id: 9 },
        delivered: 0,
        queued: 0,
        relay_configured: true,
        scheduled: server.scheduled ?? null,
      }),
      saveDraft: ({ body }) => ({
        message: { uid: (body as { uid: number | null }).uid ?? 41, folder_id: 4 },
      }),
      cancelScheduledSend: () => server.cancel?.() ?? { draft: { folder_id: 4, uid: 77 } },
      message: ({ params }) => (params.uid === '77' ? { message: returnedDraft } : undefined),
    },
    {
      onRequest: (request) => void server.calls.push(request),
      otherwise: () => apiError(404, 'entity_not_found', 'Not found'),
    },
  );
  const client = createQueryClient();
  client.setQueryData(sessionQueries.account().queryKey, account);
  client.setQueryData(sessionQueries.access().queryKey, testUser);
  act(() => useCompose.getState().openCompose(request));
  render(
    <Providers queryClient={client}>
      <ComposeWindow />
      <NoticeBox />
    </Providers>,
  );
  return client;
}

const sent = (server: Server, route: RouteName) => server.calls.filter((call) => call.route === route);

function typeRecipients(label: string, text: string) {
  const field = screen.getByLabelText(label, { selector: 'input' });
  fireEvent.focus(field);
  fireEvent.change(field, { target: { value: text } });
  fireEvent.blur(field);
}

/** Opens a Radix dropdown by its trigger's name (its items load on the first click; Radix opens on pointer down). */
async function openMenu(name: string) {
  fireEvent.click(screen.getByRole('button', { name }));
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  if (!screen.queryByRole('menu')) {
    fireEvent.pointerDown(screen.getByRole('button', { name, hidden: true }), { button: 0, ctrlKey: false });
  }
  return screen.findByRole('menu');
}

async function writeMessage() {
  const window = await screen.findByRole('dialog', { name: 'New message' });
  typeRecipients('To', 'Bob <bob@example.org>');
  fireEvent.change(within(window).getByLabelText('Subject'), { target: { value: 'Plans' } });
  // Plain text: the restored window must come back in it, with the text as typed.
  fireEvent.click(within(window).getByRole('button', { name: 'Plain text' }));
  fireEvent.change(within(window).getByLabelText('Message text'), {
    target: { value: 'Hello Bob,\nsee you' },
  });
  return window;
}

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => useCompose.getState().closeCompose());
  useNotices.setState({ queue: [] });
});

describe('send later and undo send', () => {
  it('Send later › Tomorrow morning sends send_at with the browser offset and says when', async () => {
    const server: Server = { calls: [] };
    renderCompose({ mode: COMPOSE_MODE.NEW }, server);
    await writeMessage();
    server.scheduled = { id: 3, purpose: 'later', send_at: isoWithOffset(tomorrowMorning(new Date())) };
    const menu = await openMenu('Later: pick when it goes');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Tomorrow morning' }));
    await waitFor(() => expect(sent(server, 'sendMessage')).toHaveLength(1));
    const body = sent(server, 'sendMessage')[0]!.body as { send_at: string };
    expect(body.send_at).toMatch(/^\d{4}-\d{2}-\d{2}T08:00:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(body.send_at)).toBe(tomorrowMorning(new Date()).getTime());
    await waitFor(() =>
      expect(screen.getByTestId('success-dialog').textContent).toMatch(/Scheduled for .*08:00\./),
    );
  });

  it('Pick a time sends the picked local time; the reminder goes as remind_after_days', async () => {
    const server: Server = { calls: [] };
    renderCompose({ mode: COMPOSE_MODE.NEW }, server);
    await writeMessage();
    const remind = await openMenu('Remind me if no reply');
    fireEvent.click(within(remind).getByRole('menuitemradio', { name: 'Remind in 3 d.' }));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    const menu = await openMenu('Later: pick when it goes');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Pick a time…' }));
    const picker = await screen.findByLabelText('Send at');
    fireEvent.change(picker, { target: { value: '2027-01-15T14:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(sent(server, 'sendMessage')).toHaveLength(1));
    const body = sent(server, 'sendMessage')[0]!.body as { send_at: string; remind_after_days: number };
    expect(body.send_at).toMatch(/^2027-01-15T14:30:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(body.send_at)).toBe(new Date(2027, 0, 15, 14, 30).getTime());
    expect(body.remind_after_days).toBe(3);
  });

  it('"Sending… Undo" counts down; Undo cancels and opens the window as it was, on the returned draft', async () => {
    const server: Server = { calls: [] };
    renderCompose({ mode: COMPOSE_MODE.NEW }, server);
    const window = await writeMessage();
    server.scheduled = { id: 12, purpose: 'undo', send_at: new Date(Date.now() + 10_000).toISOString() };
    fireEvent.click(within(window).getByRole('button', { name: 'Send' }));
    const box = await screen.findByTestId('success-dialog');
    // Titled for what is under way, not "Success!": nothing has gone yet.
    expect(box.textContent).toMatch(/^Sending…Goes in (10|9) s/);
    expect(box.textContent).not.toContain('Success!');
    expect(screen.queryByRole('dialog', { name: 'Plans' })).toBeNull();

    fireEvent.click(within(box).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(sent(server, 'cancelScheduledSend')).toHaveLength(1));
    expect(sent(server, 'cancelScheduledSend')[0]!.params).toEqual({ id: '12' });
    const back = await screen.findByRole('dialog', { name: 'Plans' });
    expect((within(back).getByLabelText('Subject') as HTMLInputElement).value).toBe('Plans');
    expect(within(screen.getByRole('list', { name: 'To' })).getByRole('listitem').textContent).toBe('Bob');
    expect((within(back).getByLabelText('Message text') as HTMLTextAreaElement).value).toBe(
      'Hello Bob,\nsee you',
    );
    expect(within(back).getByRole('button', { name: 'Plain text' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    // The window continues the returned draft: sending again replaces it.
    server.scheduled = null;
    fireEvent.click(within(back).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent(server, 'sendMessage')).toHaveLength(2));
    expect(sent(server, 'sendMessage')[1]!.body).toMatchObject({ uid: 77, subject: 'Plans' });
  });

  it('Undo after the send went shows send_already_sent; a cancel elsewhere closes the box', async () => {
    const server: Server = {
      calls: [],
      cancel: () => apiError(409, 'send_already_sent', 'The message has already been sent'),
    };
    const client = renderCompose({ mode: COMPOSE_MODE.NEW }, server);
    const window = await writeMessage();
    server.scheduled = { id: 13, purpose: 'undo', send_at: new Date(Date.now() + 10_000).toISOString() };
    fireEvent.click(within(window).getByRole('button', { name: 'Send' }));
    const box = await screen.findByTestId('success-dialog');
    fireEvent.click(within(box).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(useNotices.getState().queue.map((notice) => notice.text)).toContain(
        'The message has already been sent: it can no longer be undone.',
      ),
    );
    expect(screen.queryByRole('dialog', { name: 'Plans' })).toBeNull();

    // Another send held, then cancelled in another tab: its box goes.
    act(() => useNotices.setState({ queue: [] }));
    act(() => useCompose.getState().openCompose({ mode: COMPOSE_MODE.NEW }));
    const again = await writeMessage();
    server.scheduled = { id: 14, purpose: 'undo', send_at: new Date(Date.now() + 10_000).toISOString() };
    fireEvent.click(within(again).getByRole('button', { name: 'Send' }));
    await screen.findByTestId('success-dialog');
    act(() => composeLiveHandler.onEvent({ event: 'scheduledSend', id: 14, state: 'sent' }, client));
    await waitFor(() => expect(screen.getByTestId('success-dialog').textContent).toContain('Message sent.'));
    expect(screen.getByTestId('success-dialog').textContent).not.toContain('Sending…');
    expect(within(screen.getByTestId('success-dialog')).queryByRole('button', { name: 'Undo' })).toBeNull();
    act(() => composeLiveHandler.onEvent({ event: 'scheduledSend', id: 14, state: 'cancelled' }, client));
    expect(screen.queryByTestId('success-dialog')).toBeNull();
  });
});
