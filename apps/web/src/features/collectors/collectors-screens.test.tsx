import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Collector, FindImapResponse, Folder } from '@mailroom/protocol';
import { apiError, folder } from '../../test/fixtures';
import { fakeApi, sent, type Sent } from '../../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../../test/render-app';
import { createQueryClient } from '../../app/query-client';
import { applyMailEvent } from '../../app/live-updates';
import { loadErrorTexts, setLanguage } from '../../i18n';
import errorsEn from '../../i18n/locales/errors.en.json';
import { useNotices } from '../../ui/notices-store';

setUpScreenTests();

function collector(id: number, email: string, fields: Partial<Collector> = {}): Collector {
  return {
    id,
    email,
    login: email,
    folder_name: `INBOX.import.${email.replace(/\./g, '\u2024')}`,
    server: { host: 'imap.mail.ru', port: 993, security: 'tls' },
    enabled: true,
    apply_filters: false,
    state: 'idle',
    progress: {
      folders_done: 3,
      folders_total: 3,
      messages_done: 120,
      messages_total: 120,
      messages_skipped: 0,
    },
    last_error: null,
    last_error_at: null,
    last_sync_at: '2026-11-24T10:00:00Z',
    next_sync_at: null,
    created_at: '2026-11-24T09:00:00Z',
    ...fields,
  };
}

const GMAIL: FindImapResponse = {
  server: { host: 'imap.gmail.com', port: 993, security: 'tls' },
  source: 'provider',
  provider: {
    name: 'Gmail',
    requires: 'app_password',
    help_url: 'https://myaccount.google.com/apppasswords',
  },
};

/**
 * The collectors API as the contract (packages/protocol/src/schemas/collectors.ts) describes it, over an in-memory
 * list: `discover` answers find_imap per address (undefined: mail_server_not_found); `refuse` answers a write with an
 * error first. Every write is recorded.
 */
function serve(
  initial: { collectors?: Collector[]; folders?: Folder[] } = {},
  options: {
    discover?: (email: string) => FindImapResponse | Response | undefined;
    refuse?: (call: Sent) => Response | undefined;
  } = {},
) {
  const collectors = (initial.collectors ?? []).map((c) => ({ ...c }));
  const writes: Sent[] = [];
  let nextId = 50;
  fakeApi(
    {
      collectors: () => ({ collectors }),
      findImap: ({ body }) => {
        const found = options.discover?.(String((body as { email?: unknown }).email));
        if (found instanceof Response) return found;
        return found ?? apiError(404, 'mail_server_not_found');
      },
      createCollector: ({ body: sentBody }) => {
        const body = (sentBody ?? {}) as Record<string, unknown>;
        const made = collector(nextId++, String(body.email), {
          login: String(body.login ?? body.email),
          state: 'importing',
          progress: {
            folders_done: 0,
            folders_total: 0,
            messages_done: 0,
            messages_total: 0,
            messages_skipped: 0,
          },
          last_sync_at: null,
          apply_filters: body.apply_filters === true,
        });
        collectors.push(made);
        return { collector: made };
      },
      updateCollector: ({ params, body: sentBody }) => {
        const body = (sentBody ?? {}) as Record<string, unknown>;
        const c = collectors.find((x) => x.id === Number(params.id));
        if (!c) return apiError(404, 'collector_not_found');
        if (typeof body.enabled === 'boolean') {
          c.enabled = body.enabled;
          c.state = body.enabled ? 'importing' : 'disabled';
          c.next_sync_at = null;
        }
        return { collector: c };
      },
      deleteCollector: ({ params }) => {
        const c = collectors.find((x) => x.id === Number(params.id));
        if (!c) return apiError(404, 'collector_not_found');
        collectors.splice(collectors.indexOf(c), 1);
        return { ok: true };
      },
      folderMessages: { messages: [], total: 0, all: 0 },
    },
    {
      shell: { folders: initial.folders ?? [folder(11, 'INBOX', 'inbox')] },
      onRequest: (request) => {
        if (request.method === 'GET') return undefined;
        const write = sent(request);
        writes.push(write);
        // find_imap is a question, not a change: a refusal is for the writes after it.
        return request.route === 'findImap' ? undefined : options.refuse?.(write);
      },
    },
  );
  return { writes, collectors };
}

const errorNotices = () =>
  useNotices
    .getState()
    .queue.filter((notice) => notice.kind === 'error')
    .map((notice) => notice.text);

const typeInto = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('settings/collectors/create: discovery', () => {
  it('shows what find_imap found (host, port, security, source) and the provider note with its link', async () => {
    const { writes } = serve({}, { discover: (email) => (email === 'ann@gmail.com' ? GMAIL : undefined) });
    renderAt('/settings/collectors/create');
    await screen.findByLabelText('Address of the other mailbox', {}, { timeout: 5_000 });
    typeInto('Address of the other mailbox', 'ann@gmail.com');
    fireEvent.click(screen.getByRole('button', { name: 'Find the server' }));
    const found = await screen.findByRole('group', { name: 'Server found' });
    expect(
      within(found).getByText(
        'imap.gmail.com, port 993, SSL/TLS, found from the list of known mail providers.',
      ),
    ).toBeTruthy();
    const note = within(found).getByRole('note');
    expect(note.textContent).toContain('Gmail needs an app password');
    expect(within(note).getByRole('link', { name: 'Create one here' }).getAttribute('href')).toBe(
      'https://myaccount.google.com/apppasswords',
    );
    expect(writes).toEqual([{ route: 'findImap', body: { email: 'ann@gmail.com' } }]);
    // Continue: the confirm page shows the same server and note without asking again.
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/collectors/confirm/ann%40gmail.com'));
    expect(await screen.findByText('Server: imap.gmail.com, port 993, SSL/TLS')).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain('Gmail needs an app password');
    expect(writes).toHaveLength(1);
  });

  it('a server found through SRV says so; a deep link to confirm asks discovery itself', async () => {
    serve(
      {},
      {
        discover: () => ({
          server: { host: 'mail.corp.test', port: 143, security: 'starttls' },
          source: 'srv',
          provider: null,
        }),
      },
    );
    renderAt('/settings/collectors/confirm/bob%40corp.test');
    expect(
      await screen.findByText('Server: mail.corp.test, port 143, STARTTLS', {}, { timeout: 5_000 }),
    ).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
    expect((screen.getByLabelText('Login') as HTMLInputElement).value).toBe('bob@corp.test');
  });

  it('nothing found: mail_server_not_found in words, and the server set by hand opens; a bad port is invalid_port', async () => {
    const { writes } = serve();
    renderAt('/settings/collectors/create');
    await screen.findByLabelText('Address of the other mailbox', {}, { timeout: 5_000 });
    typeInto('Address of the other mailbox', 'ivan@tiny.test');
    fireEvent.click(screen.getByRole('button', { name: 'Find the server' }));
    expect(await screen.findByText(errorsEn.mail_server_not_found)).toBeTruthy();
    const manual = screen.getByText('Set the server by hand').closest('details')!;
    await waitFor(() => expect(manual.open).toBe(true));
    typeInto('IMAP server', 'imap.tiny.test');
    typeInto('Port', '70000');
    fireEvent.click(screen.getByRole('button', { name: 'Continue with this server' }));
    expect(await screen.findByText(errorsEn.invalid_port)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Security'), { target: { value: 'starttls' } });
    typeInto('Port', '143');
    fireEvent.click(screen.getByRole('button', { name: 'Continue with this server' }));
    await waitFor(() =>
      expect(currentPath()).toBe(
        '/settings/collectors/confirm/ivan%40tiny.test?host=imap.tiny.test&port=143&security=starttls',
      ),
    );
    expect(await screen.findByText('Server: imap.tiny.test, port 143, STARTTLS')).toBeTruthy();
    // The login may differ from the address; the filters are asked for.
    typeInto('Login', 'ivan');
    typeInto('Password', 'secret');
    fireEvent.click(screen.getByLabelText('Apply my filters to the collected mail'));
    fireEvent.click(screen.getByRole('button', { name: 'Add collector' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/collectors'));
    expect(writes.at(-1)).toEqual({
      route: 'createCollector',
      body: {
        email: 'ivan@tiny.test',
        password: 'secret',
        login: 'ivan',
        host: 'imap.tiny.test',
        port: 143,
        security: 'starttls',
        apply_filters: true,
      },
    });
    // Back on the list with the import running.
    const row = await screen.findByRole('listitem', { name: 'ivan@tiny.test' });
    expect(within(row).getByText('Importing')).toBeTruthy();
    expect(within(row).getByRole('progressbar', { name: 'Import progress of ivan@tiny.test' })).toBeTruthy();
  });

  it('the server set by hand is there without discovery, and an address that is not one is said in words', async () => {
    serve();
    renderAt('/settings/collectors/create');
    await screen.findByLabelText('Address of the other mailbox', {}, { timeout: 5_000 });
    typeInto('Address of the other mailbox', 'not-an-address');
    fireEvent.click(screen.getByRole('button', { name: 'Find the server' }));
    expect(await screen.findByText(errorsEn.collector_invalid_email)).toBeTruthy();
    fireEvent.click(screen.getByText('Set the server by hand'));
    expect(screen.getByLabelText('IMAP server')).toBeTruthy();
    expect((screen.getByLabelText('Port') as HTMLInputElement).value).toBe('993');
  });
});

describe('settings/collectors/confirm: each refusal in words', () => {
  const codes = [
    ['collector_invalid_password', 400],
    ['cannot_connect_to_mail_server', 502],
    ['cant_fetch_inbox', 400],
    ['mail_server_not_found', 404],
    ['collector_invalid_email', 400],
    ['collector_not_created', 500],
    ['internal_imap_error', 502],
    ['invalid_port', 400],
    ['invalid_provider', 400],
    ['err_provider_already_exists', 400],
    ['max_count_collectors', 400],
    ['collector_tls_failed', 502],
    ['collector_server_forbidden', 400],
    ['collector_app_password_required', 400],
    ['collector_oauth_required', 400],
  ] as const;

  it.each(codes)('%s is shown as its text, not a code, and the page stays', async (code, status) => {
    serve({}, { discover: () => GMAIL, refuse: () => apiError(status, code, 'raw server words') });
    renderAt('/settings/collectors/confirm/ann%40gmail.com');
    await screen.findByText('Server: imap.gmail.com, port 993, SSL/TLS', {}, { timeout: 5_000 });
    typeInto('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Add collector' }));
    // SPEC §8: a 500 reads as internal_error whatever its code (collector_not_created is one).
    const text = status === 500 ? errorsEn.internal_error : errorsEn[code];
    expect(text).toBeTruthy();
    const alert = await screen.findByText(text);
    expect(alert.getAttribute('role')).toBe('alert');
    expect(currentPath()).toBe('/settings/collectors/confirm/ann%40gmail.com');
    expect(screen.queryByText(code)).toBeNull();
    expect(errorNotices()).toEqual([]);
  });

  it('a wrong password is said beside the password, with the provider note and its link', async () => {
    serve({}, { discover: () => GMAIL, refuse: () => apiError(400, 'collector_app_password_required') });
    renderAt('/settings/collectors/confirm/ann%40gmail.com');
    await screen.findByText('Server: imap.gmail.com, port 993, SSL/TLS', {}, { timeout: 5_000 });
    typeInto('Password', 'my-google-password');
    fireEvent.click(screen.getByRole('button', { name: 'Add collector' }));
    await screen.findByText(errorsEn.collector_app_password_required);
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByRole('link', { name: 'Create one here' }).length).toBe(2);
  });

  it('reads in Russian', async () => {
    await setLanguage('ru');
    try {
      serve({}, { discover: () => GMAIL, refuse: () => apiError(502, 'cannot_connect_to_mail_server') });
      renderAt('/settings/collectors/confirm/ann%40gmail.com');
      await screen.findByText('Сервер: imap.gmail.com, порт 993, SSL/TLS', {}, { timeout: 5_000 });
      typeInto('Пароль', 'x');
      fireEvent.click(screen.getByRole('button', { name: 'Добавить сборщик' }));
      await loadErrorTexts();
      expect(await screen.findByText('Не удаётся подключиться к почтовому серверу')).toBeTruthy();
    } finally {
      await setLanguage('en');
    }
  });
});

describe('settings/collectors: the list', () => {
  it('shows each collector: server, state in words, progress, last check and the last error in words', async () => {
    serve({
      collectors: [
        collector(1, 'ivan@mail.ru'),
        collector(2, 'ann@gmail.com', {
          login: 'ann.lee',
          server: GMAIL.server,
          state: 'stopped',
          enabled: true,
          last_error: 'collector_invalid_password',
          last_error_at: '2026-11-24T11:00:00Z',
        }),
      ],
    });
    renderAt('/settings/collectors');
    const ivan = await screen.findByRole('listitem', { name: 'ivan@mail.ru' }, { timeout: 5_000 });
    expect(within(ivan).getByText('Up to date')).toBeTruthy();
    expect(within(ivan).getByText('imap.mail.ru, port 993, SSL/TLS')).toBeTruthy();
    expect(within(ivan).getByText('Folders 3/3, messages 120/120')).toBeTruthy();
    expect(within(ivan).getByText(/^Last checked: /)).toBeTruthy();
    const ann = screen.getByRole('listitem', { name: 'ann@gmail.com' });
    expect(within(ann).getByText('Stopped: sign-in refused')).toBeTruthy();
    expect(within(ann).getByText('ann.lee · imap.gmail.com, port 993, SSL/TLS')).toBeTruthy();
    expect((await within(ann).findByRole('note')).textContent).toMatch(
      new RegExp(`^Last error \\(.+\\): ${errorsEn.collector_invalid_password}$`),
    );
  });

  it("progress moves with the websocket's collector events; updateAccount 'collectors' reads the list again", async () => {
    const server = serve({
      collectors: [
        collector(1, 'ivan@mail.ru', {
          state: 'importing',
          progress: {
            folders_done: 1,
            folders_total: 4,
            messages_done: 10,
            messages_total: 2000,
            messages_skipped: 0,
          },
        }),
      ],
    });
    const client = createQueryClient();
    renderAt('/settings/collectors', client);
    const row = await screen.findByRole('listitem', { name: 'ivan@mail.ru' }, { timeout: 5_000 });
    expect(within(row).getByText('Folders 1/4, messages 10/2,000')).toBeTruthy();
    const bar = within(row).getByRole('progressbar', { name: 'Import progress of ivan@mail.ru' });
    expect(bar.getAttribute('value')).toBe('10');
    const progress = {
      folders_done: 3,
      folders_total: 4,
      messages_done: 1500,
      messages_total: 2000,
      messages_skipped: 2,
    };
    applyMailEvent(client, {
      event: 'collector',
      collector: collector(1, 'ivan@mail.ru', { state: 'importing', progress }),
    });
    expect(
      await within(row).findByText('Folders 3/4, messages 1,500/2,000 · Skipped (too big or unreadable): 2'),
    ).toBeTruthy();
    expect(bar.getAttribute('value')).toBe('1500');
    // An older event arriving late does not move it back.
    applyMailEvent(client, {
      event: 'collector',
      collector: collector(1, 'ivan@mail.ru', {
        state: 'importing',
        progress: { ...progress, messages_done: 900 },
      }),
    });
    expect(within(row).getByText(/messages 1,500\/2,000/)).toBeTruthy();
    applyMailEvent(client, { event: 'collector', collector: collector(1, 'ivan@mail.ru') });
    expect(await within(row).findByText('Up to date')).toBeTruthy();
    expect(within(row).queryByRole('progressbar')).toBeNull();
    // Added in another tab.
    server.collectors.push(collector(9, 'bob@yandex.ru'));
    applyMailEvent(client, { event: 'updateAccount', part: 'collectors' });
    expect(await screen.findByRole('listitem', { name: 'bob@yandex.ru' })).toBeTruthy();
  });

  it('the switch disables a collector with PUT {enabled: false}', async () => {
    const { writes } = serve({ collectors: [collector(1, 'ivan@mail.ru')] });
    renderAt('/settings/collectors');
    const row = await screen.findByRole('listitem', { name: 'ivan@mail.ru' }, { timeout: 5_000 });
    const toggle = within(row).getByRole('switch', { name: 'Collect mail from ivan@mail.ru' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    fireEvent.click(toggle);
    // The state badge and the switch's own word both say so.
    await waitFor(() => expect(within(row).getAllByText('Off')).toHaveLength(2));
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
    expect(writes).toEqual([{ route: 'updateCollector', params: { id: '1' }, body: { enabled: false } }]);
  });

  it('changing the password: PUT {password}; a wrong one is said beside the field', async () => {
    const { writes } = serve(
      { collectors: [collector(1, 'ivan@mail.ru')] },
      {
        refuse: (call) =>
          (call.body as { password?: string }).password === 'bad'
            ? apiError(400, 'collector_invalid_password')
            : undefined,
      },
    );
    renderAt('/settings/collectors');
    const row = await screen.findByRole('listitem', { name: 'ivan@mail.ru' }, { timeout: 5_000 });
    fireEvent.click(within(row).getByRole('button', { name: 'Change the password of ivan@mail.ru' }));
    fireEvent.change(within(row).getByLabelText('New password for ivan@mail.ru'), {
      target: { value: 'bad' },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Save password' }));
    expect(await within(row).findByText(errorsEn.collector_invalid_password)).toBeTruthy();
    fireEvent.change(within(row).getByLabelText('New password for ivan@mail.ru'), {
      target: { value: 'good' },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(within(row).queryByLabelText('New password for ivan@mail.ru')).toBeNull());
    expect(writes.map((w) => w.body)).toEqual([{ password: 'bad' }, { password: 'good' }]);
  });

  it('delete asks whether to keep the imported mail: kept by default, or removed when unticked', async () => {
    const { writes } = serve({ collectors: [collector(1, 'ivan@mail.ru'), collector(2, 'bob@yandex.ru')] });
    renderAt('/settings/collectors');
    const ivan = await screen.findByRole('listitem', { name: 'ivan@mail.ru' }, { timeout: 5_000 });
    fireEvent.click(within(ivan).getByRole('button', { name: 'Delete the collector of ivan@mail.ru' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete the collector of ivan@mail.ru?' });
    const keep = within(dialog).getByLabelText(/Keep the mail already collected/) as HTMLInputElement;
    expect(keep.checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'ivan@mail.ru' })).toBeNull());
    const bob = screen.getByRole('listitem', { name: 'bob@yandex.ru' });
    fireEvent.click(within(bob).getByRole('button', { name: 'Delete the collector of bob@yandex.ru' }));
    const second = await screen.findByRole('alertdialog', { name: 'Delete the collector of bob@yandex.ru?' });
    fireEvent.click(within(second).getByLabelText(/Keep the mail already collected/));
    fireEvent.click(within(second).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'bob@yandex.ru' })).toBeNull());
    expect(writes).toEqual([
      { route: 'deleteCollector', params: { id: '1' }, query: { keep_mail: 'true' }, body: undefined },
      { route: 'deleteCollector', params: { id: '2' }, query: { keep_mail: 'false' }, body: undefined },
    ]);
    expect(await screen.findByText('No collectors yet.')).toBeTruthy();
  });

  it('the settings navigation has a Collectors entry', async () => {
    serve();
    renderAt('/settings/main');
    const nav = await screen.findByRole('navigation', { name: 'Settings sections' }, { timeout: 5_000 });
    fireEvent.click(within(nav).getByRole('link', { name: 'Mail collectors' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/collectors'));
    expect(await screen.findByText('No collectors yet.')).toBeTruthy();
  });
});
