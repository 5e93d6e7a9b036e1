import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  AccessResponse,
  AuthLogEntry,
  BaListResponse,
  RouteName,
  SecurityResponse,
  SupportRequest,
} from '@mailroom/protocol';
import { formatFullDate } from '@mailroom/protocol';
import { apiError, folder, json, testUser } from '../../test/fixtures';
import { fakeApi, sent, type FakeRequest } from '../../test/fake-api';
import { renderAt, setUpScreenTests } from '../../test/render-app';

setUpScreenTests();

const security = (fields: Partial<SecurityResponse> = {}): SecurityResponse => ({
  has_password: false,
  password_email: 'ann@mailroom.test',
  first_name: 'Ann',
  last_name: 'Lee',
  passport_level: 'formal',
  password_codes_locked_until: null,
  impersonation: [],
  ba_impersonation: [],
  ...fields,
});

interface Data {
  user?: AccessResponse;
  security?: SecurityResponse;
  log?: { entries: AuthLogEntry[]; total: number };
  ba?: BaListResponse;
  requests?: SupportRequest[];
  delivery?: 'mail' | 'kept';
  diagnostics?: Record<string, string>;
}

/**
 * The server of these screens: the shell's start-up data and the security routes' reads from `data`; every request
 * other than the shell's is recorded, and `answer` may answer a write (otherwise the security settings again).
 */
function serve(data: Data, answer: (call: FakeRequest) => Response | undefined = () => undefined) {
  return fakeApi(
    {
      security: () => data.security ?? security(),
      authLog: ({ query }) => ({ entries: [], total: 0, ...data.log, page: Number(query.page), limit: 20 }),
      baList: () => data.ba ?? { bank_accounts: [], acting_for: [] },
      supportRequests: () => ({ requests: data.requests ?? [], delivery: data.delivery ?? 'mail' }),
      supportDiagnostics: () => ({ diagnostics: data.diagnostics ?? {} }),
      folderMessages: { messages: [], total: 0, all: 0 },
    },
    {
      shell: { folders: [folder(11, 'INBOX', 'inbox')], user: data.user },
      onRequest: (request) =>
        request.method === 'GET' ? undefined : (answer(request) ?? json(data.security ?? security())),
    },
  ).calls;
}

const writes = (calls: FakeRequest[]) => calls.filter((call) => call.method !== 'GET').map(sent);
/** The routes of settings/access and the bank accounts: what a session held to an alias never asks for. */
const securityRoutes: RouteName[] = [
  'security',
  'sendPasswordCode',
  'newPassword',
  'changePassword',
  'updateUserInfo',
  'authLog',
  'grantImpersonation',
  'revokeImpersonation',
  'grantBaImpersonation',
  'revokeBaImpersonation',
  'baList',
];
const field = (name: string | RegExp) => screen.getByLabelText(name) as HTMLInputElement;
const type = (name: string | RegExp, value: string) => fireEvent.change(field(name), { target: { value } });

/** settings/access drawn, a code asked for, and the code and both passwords typed (not yet sent). */
async function fillPasswordForm(code: string, password: string, again: string) {
  renderAt('/settings/access');
  fireEvent.click(await screen.findByRole('button', { name: 'Send code' }, { timeout: 5_000 }));
  await screen.findByLabelText('Code');
  type('Code', code);
  type('New password', password);
  type('New password again', again);
}

describe('settings/access: name', () => {
  it('saving the first and last name sends them trimmed and says so', async () => {
    const calls = serve({});
    renderAt('/settings/access');
    await screen.findByRole('heading', { name: 'Your name' }, { timeout: 5_000 });
    expect(field('First name').value).toBe('Ann');
    type('First name', '  Anna ');
    type('Last name', 'Lee-Smith');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(writes(calls)).toEqual([
        {
          route: 'updateUserInfo',
          body: { first_name: 'Anna', last_name: 'Lee-Smith' },
        },
      ]),
    );
    expect(await screen.findByText('Name saved')).toBeTruthy();
  });
});

describe('settings/access: mailbox password', () => {
  it('a code is sent first, its validity and the resend countdown are shown, then the password is set with it', async () => {
    const calls = serve({}, ({ route }) =>
      route === 'sendPasswordCode'
        ? json({ expires_in: 600 })
        : route === 'newPassword'
          ? json(security({ has_password: true }))
          : undefined,
    );
    renderAt('/settings/access');
    expect(
      await screen.findByText(/ann@mailroom.test has no password yet/, undefined, { timeout: 5_000 }),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Code')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByLabelText('Code');
    expect(writes(calls)[0]).toEqual({
      route: 'sendPasswordCode',
      body: { purpose: 'new' },
    });
    const status = screen.getByText(/A code was sent to your wallet application/);
    expect(status.textContent).toMatch(/valid for 10 minutes/);
    expect(status.textContent).toMatch(/Time left: (10:00|9:59)\./);
    expect(status.textContent).toMatch(/A new code in (60|59) s\./);
    expect((screen.getByRole('button', { name: 'Send a new code' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    // The two passwords differ: said at once, and the code is not spent on it.
    type('Code', '123456');
    type('New password', 'correct horse battery');
    type('New password again', 'correct horse batery');
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('The passwords do not match')).toBeTruthy();
    expect(writes(calls)).toHaveLength(1);

    type('New password again', 'correct horse battery');
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(writes(calls)).toHaveLength(2));
    expect(writes(calls)[1]).toEqual({
      route: 'newPassword',
      body: { code: '123456', password: 'correct horse battery', password_confirm: 'correct horse battery' },
    });
    expect(await screen.findByText('The mailbox password is set')).toBeTruthy();
    // The answer says there is a password now: the next change is a change.
    expect(await screen.findByText(/ann@mailroom.test has a password/)).toBeTruthy();
    expect(screen.queryByLabelText('Code')).toBeNull();
  });

  it('a new code may be asked for after a minute, and after ten the code is said to have expired', async () => {
    const calls = serve({}, () => json({ expires_in: 600 }));
    renderAt('/settings/access');
    fireEvent.click(await screen.findByRole('button', { name: 'Send code' }, { timeout: 5_000 }));
    const resend = (await screen.findByRole('button', { name: 'Send a new code' })) as HTMLButtonElement;
    expect(resend.disabled).toBe(true);
    const sentAt = Date.now();
    const now = vi.spyOn(Date, 'now').mockReturnValue(sentAt + 61_000);
    await waitFor(() => expect(resend.disabled).toBe(false), { timeout: 3_000 });
    expect(screen.getByText(/Time left: 8:5\d\./)).toBeTruthy();
    now.mockReturnValue(sentAt + 601_000);
    expect(
      await screen.findByText('The code has expired: send a new one.', undefined, { timeout: 3_000 }),
    ).toBeTruthy();
    now.mockRestore();
    fireEvent.click(resend);
    await waitFor(() => expect(writes(calls)).toHaveLength(2));
  });

  it('with a password already, the code is asked for a change and password/change is called', async () => {
    const calls = serve({ security: security({ has_password: true }) }, ({ route }) =>
      route === 'sendPasswordCode' ? json({ expires_in: 600 }) : undefined,
    );
    await fillPasswordForm('654321', 'another password', 'another password');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(writes(calls)).toHaveLength(2));
    expect(writes(calls).map((call) => [call.route, call.body])).toEqual([
      ['sendPasswordCode', { purpose: 'change' }],
      [
        'changePassword',
        { code: '654321', password: 'another password', password_confirm: 'another password' },
      ],
    ]);
  });

  it('a wrong code is refused with its SPEC text beside the form', async () => {
    serve({}, ({ route }) =>
      route === 'sendPasswordCode'
        ? json({ expires_in: 600 })
        : apiError(400, 'request_code_not_found', 'Invalid verification code entered.'),
    );
    await fillPasswordForm('000000', 'correct horse battery', 'correct horse battery');
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Invalid verification code entered.')).toBeTruthy();
  });

  it('a code asked again too soon says why', async () => {
    serve({}, () => apiError(429, 'too_many_requests', 'Too many requests, try again later'));
    renderAt('/settings/access');
    fireEvent.click(await screen.findByRole('button', { name: 'Send code' }, { timeout: 5_000 }));
    expect(await screen.findByText('Too many requests, try again later')).toBeTruthy();
    expect(screen.queryByLabelText('Code')).toBeNull();
  });

  it("after the day's last code no new one can be asked for, and the screen says until when and why", async () => {
    const until = new Date(Date.now() + 20 * 3600_000).toISOString();
    const calls = serve({ security: security({ password_codes_locked_until: until }) });
    renderAt('/settings/access');
    const alert = await screen.findByText(/That was the last code for today/, {}, { timeout: 5_000 });
    expect(alert.textContent).toContain(formatFullDate(until, new Date(), 'en'));
    expect(alert.textContent).toContain('check your sign-in log');
    const send = screen.getByRole('button', { name: 'Send code' });
    expect(send.hasAttribute('disabled')).toBe(true);
    fireEvent.click(send);
    expect(calls.some((call) => call.route === 'sendPasswordCode')).toBe(false);
  });
});

describe('settings/access: sign-in log', () => {
  const entry = (fields: Partial<AuthLogEntry>): AuthLogEntry => ({
    at: '2026-11-20T10:15:00Z',
    ip: '192.0.2.10',
    user_agent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    method: 'sso',
    success: true,
    address: null,
    member_id: null,
    ...fields,
  });

  it('shows each sign-in with its method, result, IP, browser and who, and pages through them', async () => {
    const calls = serve({
      log: {
        total: 45,
        entries: [
          entry({ method: 'password', success: false, address: 'ann@mailroom.test' }),
          entry({ method: 'impersonation', member_id: '210987654321' }),
          entry({}),
        ],
      },
    });
    renderAt('/settings/access');
    const table = await screen.findByRole('table', { name: 'Sign-in log' }, { timeout: 5_000 });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Password', 'Failed', '192.0.2.10', 'Chrome 131, Linux', 'ann@mailroom.test'],
      ['Impersonation', 'Succeeded', '192.0.2.10', 'Chrome 131, Linux', 'member 210987654321'],
      ['Single sign-on', 'Succeeded', '192.0.2.10', 'Chrome 131, Linux', '—'],
    ]);
    // The time in the user's language, with the exact instant kept for machines.
    const time = within(rows[0]!).getByText((_, element) => element?.tagName === 'TIME');
    expect(time.getAttribute('datetime')).toBe('2026-11-20T10:15:00Z');
    // In the mail list's format (formatFullDate), as every date of the settings screens.
    expect(time.textContent).toBe(formatFullDate('2026-11-20T10:15:00Z', new Date(), 'en'));
    expect(time.textContent).toMatch(/^20 November(, | 2026, )\d\d:\d\d/);

    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Older sign-ins' }));
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    expect(calls.map(sent)).toContainEqual({ route: 'authLog', query: { page: '2', limit: '20' } });
  });
});

describe('settings/access: impersonation', () => {
  it('a member ID is checked as it is typed and granted at 12 digits', async () => {
    const granted = security({
      impersonation: [{ member_id: '210987654321', granted_at: '2026-11-20T10:00:00Z' }],
    });
    const calls = serve({}, () => json(granted));
    renderAt('/settings/access');
    await screen.findByRole('heading', { name: 'Impersonation' }, { timeout: 5_000 });
    expect(screen.getByText('Nobody can open your mailbox but you.')).toBeTruthy();
    const grant = screen.getByRole('button', { name: 'Grant access' }) as HTMLButtonElement;
    type('Member ID', '2109876x');
    expect(await screen.findByText('Invalid member ID')).toBeTruthy();
    expect(grant.disabled).toBe(true);
    type('Member ID', '21098765432');
    await waitFor(() => expect(screen.queryByText('Invalid member ID')).toBeNull());
    expect(grant.disabled).toBe(true);
    type('Member ID', '210987654321');
    expect(grant.disabled).toBe(false);
    fireEvent.click(grant);
    await waitFor(() =>
      expect(writes(calls)).toEqual([
        {
          route: 'grantImpersonation',
          query: { member_id: '210987654321' },
          body: undefined,
        },
      ]),
    );
    const list = await screen.findByRole('list', { name: 'Members who can open your mailbox' });
    expect(within(list).getByText('210987654321')).toBeTruthy();
    expect(field('Member ID').value).toBe('');
  });

  it("the server's refusal of a member ID is shown beside the field", async () => {
    serve({}, () => apiError(400, 'invalid_member_id2', 'Invalid member ID specified.'));
    renderAt('/settings/access');
    await screen.findByRole('heading', { name: 'Impersonation' }, { timeout: 5_000 });
    type('Member ID', '123456789012');
    fireEvent.click(screen.getByRole('button', { name: 'Grant access' }));
    expect(await screen.findByText('Invalid member ID specified.')).toBeTruthy();
  });

  it('revoking asks first, says their sessions end at once, then sends DELETE', async () => {
    const calls = serve(
      {
        security: security({
          impersonation: [{ member_id: '210987654321', granted_at: '2026-11-20T10:00:00Z' }],
        }),
      },
      () => json(security()),
    );
    renderAt('/settings/access');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Revoke access of 210987654321' }, { timeout: 5_000 }),
    );
    const dialog = await screen.findByRole('alertdialog', undefined, { timeout: 5_000 });
    expect(within(dialog).getByText(/their open sessions in your mailbox end now/)).toBeTruthy();
    expect(writes(calls)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(writes(calls)).toEqual([
        {
          route: 'revokeImpersonation',
          query: { member_id: '210987654321' },
          body: undefined,
        },
      ]),
    );
    expect(await screen.findByText('Nobody can open your mailbox but you.')).toBeTruthy();
  });
});

describe('settings/ba', () => {
  it("lists the member's bank accounts, who may act for them, and the accounts of members they act for", async () => {
    const calls = serve({
      security: security({
        ba_impersonation: [{ member_id: '333344445555', granted_at: '2026-11-19T08:00:00Z' }],
      }),
      ba: {
        bank_accounts: [
          { id: 'a1', name: 'Everyday', number: '•••• 4821', currency: 'USD' },
          { id: 'a2', name: 'Savings', number: '•••• 0097', currency: 'EUR' },
        ],
        acting_for: [
          {
            member_id: '666677778888',
            name: 'Bob Stone',
            bank_accounts: [{ id: 'b1', name: 'Shop', number: '•••• 1200', currency: 'USD' }],
          },
        ],
      },
    });
    renderAt('/settings/ba');
    const own = await screen.findByRole('list', { name: 'Your bank accounts' }, { timeout: 5_000 });
    expect(
      within(own)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Everyday•••• 4821USD', 'Savings•••• 0097EUR']);
    const theirs = screen.getByRole('list', { name: 'Bob Stone (member 666677778888)' });
    expect(within(theirs).getByText('•••• 1200')).toBeTruthy();
    const granted = screen.getByRole('list', { name: 'Members who may act for your bank accounts' });
    expect(within(granted).getByText('333344445555')).toBeTruthy();

    type('Member ID', '999900001111');
    fireEvent.click(screen.getByRole('button', { name: 'Grant' }));
    await waitFor(() =>
      expect(writes(calls).map((call) => [call.route, call.query])).toEqual([
        ['grantBaImpersonation', { member_id: '999900001111' }],
      ]),
    );
  });
});

describe('settings/support', () => {
  it('an empty request is refused with its SPEC text and not sent', async () => {
    const calls = serve({});
    renderAt('/settings/support');
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }, { timeout: 5_000 }));
    expect(await screen.findByText('Write the subject and the text of your request')).toBeTruthy();
    expect(writes(calls)).toEqual([]);
  });

  it('with diagnostics, what is shown is exactly what is sent, and the request joins the history', async () => {
    const data: Data = { diagnostics: { 'Account created': '2026-01-02', 'Messages stored': '1204' } };
    const calls = serve(data, ({ body }) => {
      const sent = body as { subject: string; text: string };
      const request = { id: 1, ...sent, created_at: '2026-11-21T09:00:00Z', diagnostics: true };
      data.requests = [request];
      return json({ request, delivery: 'mail' });
    });
    renderAt('/settings/support');
    expect(
      await screen.findByText('You have not written to support yet.', undefined, { timeout: 5_000 }),
    ).toBeTruthy();
    type('Subject', 'Mail is late');
    type('What happened', 'Mail from the bank comes an hour late.');
    expect(calls.some((call) => call.route === 'supportDiagnostics')).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Include diagnostics' }));
    const list = await screen.findByLabelText('Diagnostics sent with the message');
    await within(list).findByText('Messages stored');
    const pairs = Object.fromEntries(
      within(list)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    expect(pairs).toEqual({
      'Account created': '2026-01-02',
      'Messages stored': '1204',
      Browser: navigator.userAgent,
      'Browser language': navigator.language,
      Screen: `${window.screen.width}×${window.screen.height}`,
      'App version': __APP_VERSION__,
    });

    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toEqual({
      route: 'createSupportRequest',
      body: {
        subject: 'Mail is late',
        text: 'Mail from the bank comes an hour late.',
        include_diagnostics: true,
        client: {
          user_agent: navigator.userAgent,
          language: navigator.language,
          screen: `${window.screen.width}×${window.screen.height}`,
          app_version: __APP_VERSION__,
        },
      },
    });
    expect(await screen.findByText('Your request is sent')).toBeTruthy();
    // The history is read again after the send.
    const history = await screen.findByRole('list', { name: 'Your requests' });
    expect(within(history).getByText('Mail is late')).toBeTruthy();
    expect(within(history).getByText('With diagnostics')).toBeTruthy();
  });
});

describe('settings/support without a support mailbox', () => {
  it('the form says requests are kept for the operator, and a sent one says it was kept', async () => {
    const data: Data = { delivery: 'kept' };
    serve(data, ({ body }) => {
      const request = { id: 7, ...(body as object), created_at: '2026-11-28T09:00:00Z', diagnostics: false };
      data.requests = [request as SupportRequest];
      return json({ request, delivery: 'kept' });
    });
    renderAt('/settings/support');
    expect(
      await screen.findByText(
        /This server has no support mailbox: your requests are kept here for its operator/,
        undefined,
        {
          timeout: 5_000,
        },
      ),
    ).toBeTruthy();
    type('Subject', 'Lost my filters');
    type('What happened', 'They were there yesterday.');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Your request is kept for the operator of this server')).toBeTruthy();
    expect(screen.queryByText('Your request is sent')).toBeNull();
  });
});

describe("settings while in another member's mailbox", () => {
  const delegate: AccessResponse = {
    ...testUser,
    info: { alias: null, impersonator: { member_id: '210987654321', email: '210987654321@mailroom.test' } },
  };

  it("the owner-only sections are not offered, and opening one by its address says it is the owner's", async () => {
    const calls = serve({ user: delegate });
    renderAt('/settings/access');
    const nav = await screen.findByRole('navigation', { name: 'Settings sections' }, { timeout: 5_000 });
    const entries = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(entries).toContain('General');
    expect(entries).not.toContain('Security');
    expect(entries).not.toContain('Bank accounts');
    expect(entries).not.toContain('Support');
    expect(await screen.findByText(/Only the owner of ann@mailroom.test can open this section/)).toBeTruthy();
    expect(calls.filter((call) => securityRoutes.includes(call.route))).toEqual([]);
  });
});
