import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  ATTACHMENTS_TOTAL_LIMIT_BYTES,
  AUTOSAVE_MS,
  COMPOSE_MODE,
  type Account,
  type Mail,
  type RouteName,
  uncheckedTrust,
} from '@mailroom/protocol';
import { Providers } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { sessionQueries } from '../account/queries';
import { apiError, testAccount, testUser } from '../../test/fixtures';
import { fakeApi, type FakeRequest } from '../../test/fake-api';
import { useNotices } from '../../ui/notices-store';
import { useCompose, type ComposeRequestOpen } from './compose-store';
import ComposeWindow from './compose-window';

const account: Account = {
  ...testAccount({ signature_add: 'always', signature_reply: true }),
  aliases: [{ id: 7, email: 'ann.work@mailroom.test' }],
  profiles: [
    { id: 1, name: 'Ann Lee', email: testUser.email, signature: 'Ann Lee, Mailroom', default: true },
  ],
};

const original: Mail = {
  id: 3,
  uid: 3,
  folder_id: 11,
  subject: 'RE: Отчёт',
  flags: { seen: true, flagged: false, draft: false },
  labels: [],
  fields: {
    from: [{ name: 'Bob', email: 'bob@example.org' }],
    to: [
      { name: '', email: testUser.email },
      { name: 'Carol', email: 'carol@example.org' },
    ],
    cc: [{ name: '', email: 'ann.work@mailroom.test' }],
    bcc: [],
    'reply-to': [],
  },
  preview: '',
  has_attachments: true,
  encrypted: false,
  size: 10,
  created_at: '2026-11-20T10:00:00Z',
  thread_id: 3,
  content: btoa('<p>See the <b>numbers</b></p>'),
  content_type: 'text/html',
  attachments: [{ id: 0, name: 'report.pdf', size: 2048 }],
  images_blocked: false,
  message_id: '<m3@example.org>',
  trust: uncheckedTrust,
};

interface Server {
  calls: FakeRequest[];
  sendResponse?: unknown;
  draftMessage?: Mail;
}

function mockServer(server: Server) {
  let draftUid = 40;
  fakeApi(
    {
      sendMessage: () =>
        server.sendResponse ?? {
          message: { uid: 1, folder_id: 2 },
          delivered: 1,
          queued: 0,
          relay_configured: true,
        },
      saveDraft: () => ({ message: { uid: ++draftUid, folder_id: 4 } }),
      copyAttachments: { attachments: [{ id: 91, name: 'report.pdf', size: 2048 }] },
      message: ({ params }) =>
        params.folder_id === '4' && server.draftMessage ? { message: server.draftMessage } : undefined,
    },
    {
      onRequest: (request) => void server.calls.push(request),
      otherwise: () => apiError(404, 'entity_not_found', 'Not found'),
    },
  );
}

function renderCompose(request: ComposeRequestOpen, server: Server) {
  mockServer(server);
  const client = createQueryClient();
  client.setQueryData(sessionQueries.account().queryKey, account);
  client.setQueryData(sessionQueries.access().queryKey, testUser);
  act(() => useCompose.getState().openCompose(request));
  return render(
    <Providers queryClient={client}>
      <ComposeWindow />
    </Providers>,
  );
}

const noticeTexts = () => useNotices.getState().queue.map((notice) => notice.text);
const sent = (server: Server, route: RouteName) => server.calls.filter((call) => call.route === route);

function typeRecipients(label: string, text: string) {
  const field = screen.getByLabelText(label, { selector: 'input' });
  fireEvent.focus(field);
  fireEvent.change(field, { target: { value: text } });
  fireEvent.blur(field);
}

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => useCompose.getState().closeCompose());
  useNotices.setState({ queue: [] });
});

describe('the compose window', () => {
  it('refuses to send with a flagged address and names the field, and with no recipient at all', async () => {
    const server: Server = { calls: [] };
    renderCompose({ mode: COMPOSE_MODE.NEW }, server);
    const window = await screen.findByRole('dialog', { name: 'New message' });
    fireEvent.click(within(window).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(noticeTexts()).toEqual(['Recipient email not specified.']));

    typeRecipients('To', 'bob@example.org bob');
    expect(within(window).getByTitle('Not a valid address: bob')).toBeTruthy();
    fireEvent.click(within(window).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(noticeTexts()[1]).toBe('Invalid email for: To'));
    expect(sent(server, 'sendMessage')).toEqual([]);
  });

  it('shows two recipients and +N for the rest', async () => {
    renderCompose({ mode: COMPOSE_MODE.NEW }, { calls: [] });
    await screen.findByRole('dialog', { name: 'New message' });
    typeRecipients('To', 'a@example.org, b@example.org, c@example.org d@example.org');
    const tags = screen.getByRole('list', { name: 'To' });
    expect(
      within(tags)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['a@example.org', 'b@example.org', '+2']);
  });

  it('sends from the default profile with its signature after ---, and says msg_sent', async () => {
    const server: Server = { calls: [] };
    renderCompose({ mode: COMPOSE_MODE.NEW }, server);
    const window = await screen.findByRole('dialog', { name: 'New message' });
    typeRecipients('To', 'Bob <bob@example.org>');
    fireEvent.change(within(window).getByLabelText('Subject'), { target: { value: 'Встреча' } });
    fireEvent.click(within(window).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(noticeTexts()).toEqual(['Message sent.']));
    expect(sent(server, 'sendMessage')[0]!.body).toEqual({
      subject: 'Встреча',
      fields: {
        from: { email: testUser.email, name: 'Ann Lee' },
        to: [{ email: 'bob@example.org', name: 'Bob' }],
        cc: [],
        bcc: [],
        'reply-to': [],
      },
      content: '<p></p><p>---</p><p>Ann Lee, Mailroom</p>',
      content_type: 'text/html',
      attachments: [],
      uid: null,
      source: null,
      isDraft: false,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says plainly that remote mail waits in the outbox when no relay is configured', async () => {
    const server: Server = {
      calls: [],
      sendResponse: { message: { uid: 1, folder_id: 2 }, delivered: 0, queued: 1, relay_configured: false },
    };
    renderCompose({ mode: COMPOSE_MODE.NEW }, server);
    await screen.findByRole('dialog', { name: 'New message' });
    typeRecipients('To', 'far@example.org');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(noticeTexts()[0]).toMatch(/^Message sent\. Mail to other servers waits in the outbox/),
    );
  });

  it('reply-all starts with Re:, everyone but the user, the quote and the original as source', async () => {
    const server: Server = { calls: [] };
    renderCompose({ mode: COMPOSE_MODE.REPLY_ALL, source: original }, server);
    const window = await screen.findByRole('dialog', { name: 'Re: Отчёт' });
    expect((within(window).getByLabelText('Subject') as HTMLInputElement).value).toBe('Re: Отчёт');
    expect(
      within(screen.getByRole('list', { name: 'To' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Bob', 'Carol']);
    expect(screen.queryByRole('list', { name: 'Cc' })).toBeNull();
    const editor = within(window).getByRole('textbox', { name: 'Message text' });
    expect(editor.textContent).toContain('Bob <bob@example.org> wrote:');
    expect(editor.querySelector('blockquote strong')?.textContent).toBe('numbers');
    fireEvent.click(within(window).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent(server, 'sendMessage')).toHaveLength(1));
    const body = sent(server, 'sendMessage')[0]!.body as {
      source: unknown;
      fields: { from: unknown };
    };
    expect(body.source).toEqual({ folder_id: 11, uid: 3, mode: 2 });
    // The message came to the primary address, which the default profile sends from.
    expect(body.fields.from).toEqual({ email: testUser.email, name: 'Ann Lee' });
  });

  it('a forward brings the attachments along through attachments/copy', async () => {
    const server: Server = { calls: [] };
    renderCompose({ mode: COMPOSE_MODE.FORWARD, source: original }, server);
    const window = await screen.findByRole('dialog', { name: 'Fwd: RE: Отчёт' });
    expect(await within(window).findByText('report.pdf')).toBeTruthy();
    expect(sent(server, 'copyAttachments')[0]!.body).toEqual({ folder_id: 11, uid: 3, ids: [0] });
    typeRecipients('To', 'dave@example.org');
    fireEvent.click(within(window).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent(server, 'sendMessage')).toHaveLength(1));
    expect(sent(server, 'sendMessage')[0]!.body).toMatchObject({ attachments: [91] });
  });

  it('closing an untouched window saves nothing; closing a filled one saves a draft', async () => {
    const server: Server = { calls: [] };
    renderCompose({ mode: COMPOSE_MODE.NEW }, server);
    let window = await screen.findByRole('dialog', { name: 'New message' });
    fireEvent.click(within(window).getByRole('button', { name: /^Close/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(server, 'saveDraft')).toEqual([]);

    act(() => useCompose.getState().openCompose({ mode: COMPOSE_MODE.NEW }));
    window = await screen.findByRole('dialog', { name: 'New message' });
    fireEvent.change(within(window).getByLabelText('Subject'), { target: { value: 'Later' } });
    fireEvent.click(within(window).getByRole('button', { name: /^Close/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(server, 'saveDraft').map((call) => call.body)).toMatchObject([
      { subject: 'Later', isDraft: true, uid: null },
    ]);
  });

  it('a reopened draft keeps its uid, so sending it deletes the draft on the server', async () => {
    const draft: Mail = {
      ...original,
      uid: 8,
      folder_id: 4,
      subject: 'Half written',
      fields: { ...original.fields, from: [{ name: '', email: testUser.email }], cc: [] },
      content: btoa('plain draft text'),
      content_type: 'text/plain',
      attachments: [],
    };
    const server: Server = { calls: [], draftMessage: draft };
    renderCompose({ mode: COMPOSE_MODE.NEW, draft: { folder_id: 4, uid: 8 } }, server);
    const window = await screen.findByRole('dialog', { name: 'Half written' });
    expect((within(window).getByLabelText('Message text') as HTMLTextAreaElement).value).toBe(
      'plain draft text',
    );
    fireEvent.click(within(window).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent(server, 'sendMessage')).toHaveLength(1));
    expect(sent(server, 'sendMessage')[0]!.body).toMatchObject({
      uid: 8,
      content: 'plain draft text',
      content_type: 'text/plain',
    });
  });

  it('plain-text mode strips the HTML of the signature', async () => {
    const server: Server = { calls: [] };
    account.profiles[0]!.signature = '<p><b>Ann</b> Lee</p>';
    try {
      renderCompose({ mode: COMPOSE_MODE.NEW }, server);
      const window = await screen.findByRole('dialog', { name: 'New message' });
      fireEvent.click(within(window).getByRole('button', { name: 'Plain text' }));
      expect((within(window).getByLabelText('Message text') as HTMLTextAreaElement).value).toBe(
        '---\nAnn Lee',
      );
    } finally {
      account.profiles[0]!.signature = 'Ann Lee, Mailroom';
    }
  });

  it('a file beyond the 50 MB total is refused with max_limit_reached and never uploaded', async () => {
    const server: Server = { calls: [] };
    renderCompose({ mode: COMPOSE_MODE.NEW }, server);
    await screen.findByRole('dialog', { name: 'New message' });
    const big = new File([new Uint8Array(8)], 'huge.bin');
    Object.defineProperty(big, 'size', { value: ATTACHMENTS_TOTAL_LIMIT_BYTES + 1 });
    const open = vi.spyOn(XMLHttpRequest.prototype, 'open');
    fireEvent.change(screen.getByTestId('compose-file-input'), { target: { files: [big] } });
    await waitFor(() => expect(noticeTexts()).toEqual(['Max limit reached: 50Mb']));
    expect(open).not.toHaveBeenCalled();
    expect(screen.queryByText('huge.bin')).toBeNull();
  });

  /** A new message open with the autosave interval on a fake clock (the tests move it); real timers again after. */
  async function onAutosaveClock(run: (server: Server, window: HTMLElement) => Promise<void>) {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const server: Server = { calls: [] };
      renderCompose({ mode: COMPOSE_MODE.NEW }, server);
      await run(server, await screen.findByRole('dialog', { name: 'New message' }));
    } finally {
      vi.useRealTimers();
    }
  }

  it('autosaves every 30 s while open: later saves replace the draft by its uid, nothing unchanged is sent', async () => {
    await onAutosaveClock(async (server, window) => {
      const subject = within(window).getByLabelText('Subject');
      fireEvent.change(subject, { target: { value: 'Plan' } });
      act(() => vi.advanceTimersByTime(AUTOSAVE_MS));
      await waitFor(() => expect(sent(server, 'saveDraft')).toHaveLength(1));
      await within(window).findByText('Draft saved');
      fireEvent.change(subject, { target: { value: 'Plan B' } });
      act(() => vi.advanceTimersByTime(AUTOSAVE_MS));
      await waitFor(() => expect(sent(server, 'saveDraft')).toHaveLength(2));
      act(() => vi.advanceTimersByTime(AUTOSAVE_MS));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sent(server, 'saveDraft').map((call) => call.body)).toMatchObject([
        { subject: 'Plan', uid: null },
        { subject: 'Plan B', uid: 41 },
      ]);
    });
  });

  it('keeps the 30-s autosave rhythm while the user goes on typing', async () => {
    await onAutosaveClock(async (server, window) => {
      const subject = within(window).getByLabelText('Subject');
      fireEvent.change(subject, { target: { value: 'Typing' } });
      act(() => vi.advanceTimersByTime(AUTOSAVE_MS - 5_000));
      fireEvent.change(subject, { target: { value: 'Typing on' } });
      act(() => vi.advanceTimersByTime(5_000));
      await waitFor(() => expect(sent(server, 'saveDraft')).toHaveLength(1));
      expect(sent(server, 'saveDraft')[0]!.body).toMatchObject({ subject: 'Typing on' });
    });
  });

  it('does not autosave while collapsed', async () => {
    await onAutosaveClock(async (server, window) => {
      fireEvent.change(within(window).getByLabelText('Subject'), { target: { value: 'Folded' } });
      fireEvent.click(within(window).getByRole('button', { name: 'Collapse' }));
      act(() => vi.advanceTimersByTime(3 * AUTOSAVE_MS));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sent(server, 'saveDraft')).toEqual([]);
      fireEvent.click(within(window).getByRole('button', { name: 'Expand' }));
      act(() => vi.advanceTimersByTime(AUTOSAVE_MS));
      await waitFor(() => expect(sent(server, 'saveDraft')).toHaveLength(1));
    });
  });

  it('changing From to another profile swaps the signature under ---', async () => {
    const server: Server = { calls: [] };
    account.profiles.push({
      id: 2,
      name: 'Ann at work',
      email: 'ann.work@mailroom.test',
      signature: 'Ann, Sales',
      default: false,
    });
    try {
      renderCompose({ mode: COMPOSE_MODE.NEW }, server);
      const window = await screen.findByRole('dialog', { name: 'New message' });
      const editor = within(window).getByRole('textbox', { name: 'Message text' });
      expect(editor.textContent).toContain('Ann Lee, Mailroom');
      // The first click loads the menu's chunk; Radix opens on pointer down once it is there.
      fireEvent.click(within(window).getByRole('button', { name: 'From' }));
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
      if (!screen.queryByRole('menu')) {
        fireEvent.pointerDown(within(window).getByRole('button', { name: 'From', hidden: true }), {
          button: 0,
        });
      }
      const menu = await screen.findByRole('menu');
      fireEvent.click(
        within(menu).getByRole('menuitemradio', { name: 'Ann at work <ann.work@mailroom.test>' }),
      );
      await waitFor(() => expect(editor.textContent).toContain('Ann, Sales'));
      expect(editor.textContent).not.toContain('Ann Lee, Mailroom');
      typeRecipients('To', 'bob@example.org');
      fireEvent.click(within(window).getByRole('button', { name: 'Send' }));
      await waitFor(() => expect(sent(server, 'sendMessage')).toHaveLength(1));
      expect(sent(server, 'sendMessage')[0]!.body).toMatchObject({
        fields: { from: { email: 'ann.work@mailroom.test', name: 'Ann at work' } },
        content: '<p></p><p>---</p><p>Ann, Sales</p>',
      });
    } finally {
      account.profiles.pop();
    }
  });
});
