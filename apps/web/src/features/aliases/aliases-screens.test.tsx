import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Account, type AliasEntry, type Invoice, type PaidAlias } from '@mailroom/protocol';
import { apiError, folder, testAccount } from '../../test/fixtures';
import { fakeApi, sent, type FakeRequest, type Sent } from '../../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../../test/render-app';
import { createQueryClient } from '../../app/query-client';
import { applyMailEvent } from '../../app/live-updates';
import { loadErrorTexts, loadFeatureTexts, setLanguage } from '../../i18n';
import { useNotices } from '../../ui/notices-store';

setUpScreenTests();

const DOMAIN = 'mailroom.test';

function entry(id: number, name: string, fields: Partial<AliasEntry> = {}): AliasEntry {
  return {
    id,
    email: `${name}@${DOMAIN}`,
    kind: 'paid',
    status: 'succeed',
    password_access: false,
    created_at: '2026-11-20T10:00:00Z',
    ...fields,
  };
}

function invoice(id: string, status: Invoice['status'] = 'unpaid'): Invoice {
  return {
    id,
    amount: '1.00',
    currency: 'USDW',
    status,
    pay_url: status === 'unpaid' ? `/sandbox/wallet?invoice=${id}` : null,
    created_at: '2026-11-20T10:00:00Z',
  };
}

/**
 * The aliases API as the contract (packages/protocol/src/schemas/aliases.ts) describes it, over an in-memory list:
 * the account's aliases and the invoices of the paid ones, the free one while none is taken. `wallet` says what
 * 'I have already paid' finds at the wallet. Every write is recorded; `refuse` answers a write with an error first.
 */
function serve(
  initial: { aliases?: AliasEntry[]; invoices?: Record<number, Invoice>; passport?: 'none' | 'formal' } = {},
  options: {
    wallet?: () => 'paid' | 'unpaid' | 'rejected';
    refuse?: (call: Sent) => Response | undefined;
  } = {},
) {
  const aliases = (initial.aliases ?? []).map((alias) => ({ ...alias }));
  const invoices: Record<number, Invoice> = { ...initial.invoices };
  const writes: Sent[] = [];
  let accountReads = 0;
  let nextId = 100;
  const paidOf = (alias: AliasEntry): PaidAlias => ({ ...alias, invoice: invoices[alias.id]! });
  const account = (): Account => ({
    ...testAccount(),
    aliases: aliases.filter((a) => a.status === 'succeed').map((a) => ({ id: a.id, email: a.email })),
  });

  const securityAnswer = () =>
    initial.passport && {
      has_password: false,
      password_email: 'ann@mailroom.test',
      first_name: 'Ann',
      last_name: 'Lee',
      passport_level: initial.passport,
      impersonation: [],
      ba_impersonation: [],
    };
  const remove = ({ params }: FakeRequest) => {
    aliases.splice(
      aliases.findIndex((a) => a.id === Number(params.id)),
      1,
    );
    return { ok: true };
  };
  fakeApi(
    {
      aliases: () => ({ aliases, free_available: !aliases.some((a) => a.kind === 'free'), domain: DOMAIN }),
      paidAliases: () => ({ paid_aliases: aliases.filter((a) => a.kind === 'paid').map(paidOf) }),
      security: () => securityAnswer() || undefined,
      authLog: () => securityAnswer() || undefined,
      baList: () => securityAnswer() || undefined,
      account: () => {
        accountReads++;
        return account();
      },
      folderMessages: { messages: [], total: 0, all: 0 },
      createAlias: ({ body }) => {
        const alias = entry(nextId++, (body as { name: string }).name, { kind: 'free' });
        aliases.push(alias);
        return { alias };
      },
      createPaidAlias: ({ body }) => {
        const alias = entry(nextId++, (body as { name: string }).name, { status: 'unpaid' });
        aliases.push(alias);
        invoices[alias.id] = invoice(`inv-${alias.id}`);
        return { paid_alias: paidOf(alias) };
      },
      checkAliasPayment: ({ params }) => {
        const alias = aliases.find((a) => a.id === Number(params.id))!;
        const found = options.wallet?.() ?? 'unpaid';
        if (found === 'unpaid')
          return apiError(400, 'pay_invoice', "Pay the invoice in the provider's wallet application!");
        alias.status = found === 'paid' ? 'succeed' : 'failed';
        invoices[alias.id] = invoice(invoices[alias.id]!.id, found);
        if (found === 'rejected') return apiError(400, 'pay_invoice_cancel', 'Invoice is rejected');
        return { paid_alias: paidOf(alias) };
      },
      deleteAlias: remove,
      deletePaidAlias: remove,
      updateAliasAccess: ({ body }) => {
        const update = body as { email: string; password: string | null };
        const alias = aliases.find((a) => a.email === update.email)!;
        alias.password_access = update.password !== null;
        return { alias };
      },
    },
    {
      shell: { folders: [folder(11, 'INBOX', 'inbox')], account: account() },
      onRequest: (request) => {
        if (request.method === 'GET') return undefined;
        const write = sent(request);
        writes.push(write);
        return options.refuse?.(write);
      },
    },
  );
  return { writes, accountReads: () => accountReads, aliases };
}

const errorNotices = () =>
  useNotices
    .getState()
    .queue.filter((notice) => notice.kind === 'error')
    .map((notice) => notice.text);

async function openList() {
  renderAt('/settings/aliases');
  return screen.findByRole('heading', { name: 'Aliases', level: 2 }, { timeout: 5_000 });
}

/** The list drawn, and the row of `email` in it. */
async function openRow(email: string) {
  await openList();
  return screen.findByRole('listitem', { name: email });
}

function aliasRow(email: string) {
  return screen.getByRole('listitem', { name: email });
}

describe('settings/aliases: the list', () => {
  it('shows each alias with its kind and its status in words', async () => {
    serve({
      aliases: [
        entry(1, 'ann.free', { kind: 'free', password_access: true }),
        entry(2, 'ann.shop', { status: 'unpaid' }),
        entry(3, 'ann.desk', { status: 'paying' }),
        entry(4, 'ann.gone', { status: 'failed' }),
      ],
      invoices: { 2: invoice('inv-2'), 3: invoice('inv-3', 'paid'), 4: invoice('inv-4', 'rejected') },
    });
    await openList();
    const free = await screen.findByRole('listitem', { name: `ann.free@${DOMAIN}` });
    expect(within(free).getByText('Active')).toBeTruthy();
    expect(within(free).getByText('Free alias · password sign-in on')).toBeTruthy();
    expect(within(aliasRow(`ann.shop@${DOMAIN}`)).getByText('Awaiting payment')).toBeTruthy();
    expect(within(aliasRow(`ann.shop@${DOMAIN}`)).getByText('Paid alias')).toBeTruthy();
    expect(within(aliasRow(`ann.desk@${DOMAIN}`)).getByText('Payment being checked')).toBeTruthy();
    expect(within(aliasRow(`ann.gone@${DOMAIN}`)).getByText('Payment failed')).toBeTruthy();
    // Only an active alias can be deleted or given password access; one being paid for cannot be given up.
    expect(within(free).getByRole('button', { name: `Delete ann.free@${DOMAIN}` })).toBeTruthy();
    expect(
      within(aliasRow(`ann.desk@${DOMAIN}`)).queryByRole('button', { name: /Delete|Give up/ }),
    ).toBeNull();
    expect(screen.getByText('An alias is one more address', { exact: false }).textContent).toContain(
      'Paid aliases cost 1 unit each',
    );
  });

  it('an unpaid alias shows its invoice: amount, currency and a link to pay it in the wallet', async () => {
    serve({ aliases: [entry(2, 'ann.shop', { status: 'unpaid' })], invoices: { 2: invoice('inv-2') } });
    await openList();
    const bill = await screen.findByRole('group', { name: `Invoice for ann.shop@${DOMAIN}` });
    expect(within(bill).getByText('1.00 USDW')).toBeTruthy();
    const pay = within(bill).getByRole('link', { name: 'Pay in the wallet' });
    expect(pay.getAttribute('href')).toBe('/sandbox/wallet?invoice=inv-2');
    expect(pay.getAttribute('target')).toBe('_blank');
  });

  it('says when there are no aliases yet, and that the first is free', async () => {
    serve();
    await openList();
    expect(await screen.findByText('No aliases yet. Your first alias is free.')).toBeTruthy();
  });
});

describe('settings/aliases/create', () => {
  it('checks the name as it is typed with the SPEC texts and sends nothing while it is refused', async () => {
    const { writes } = serve();
    renderAt('/settings/aliases/create');
    const name = await screen.findByRole('textbox', { name: 'Alias name' }, { timeout: 5_000 });
    expect(screen.getByText(`@${DOMAIN}`)).toBeTruthy();
    const cases: [string, string][] = [
      ['ab', 'Specify from 3 to 30 characters'],
      ['123456789012', 'You can not create a 12-digit alias'],
      ['a123456789012', 'You can not create an alias from a letter and 12 numbers'],
      ['postmaster', 'Cannot be created with given name'],
      ['ann..x', 'Invalid alias'],
    ];
    for (const [typed, text] of cases) {
      fireEvent.change(name, { target: { value: typed } });
      expect(await screen.findByRole('alert')).toHaveProperty('textContent', text);
      expect(name.getAttribute('aria-invalid')).toBe('true');
      fireEvent.click(screen.getByRole('button', { name: 'Create alias' }));
    }
    fireEvent.change(name, { target: { value: 'ann.work' } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(''));
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(writes).toEqual([]);
  });

  it('without a passport the form says so before anything is typed, and sends nothing', async () => {
    const { writes } = serve({ passport: 'none' });
    renderAt('/settings/aliases/create');
    const note = await screen.findByRole('note', {}, { timeout: 5_000 });
    expect(note.textContent).toBe(
      'An alias needs a passport of at least formal level in your wallet, and yours has none yet. Raise it in the wallet, then come back.',
    );
    expect(screen.getByRole('button', { name: 'Create alias' })).toHaveProperty('disabled', true);
    expect(writes).toEqual([]);
  });

  it('with a formal passport nothing is said about it', async () => {
    serve({ passport: 'formal' });
    renderAt('/settings/aliases/create');
    await screen.findByRole('textbox', { name: 'Alias name' }, { timeout: 5_000 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('creates the free alias, returns to the list where it is active, and reads the account again', async () => {
    const server = serve();
    renderAt('/settings/aliases/create');
    const name = await screen.findByRole('textbox', { name: 'Alias name' }, { timeout: 5_000 });
    expect((screen.getByRole('radio', { name: 'Free alias' }) as HTMLInputElement).checked).toBe(true);
    const readsBefore = server.accountReads();
    fireEvent.change(name, { target: { value: ' ann.work ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create alias' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/aliases'));
    expect(server.writes).toEqual([{ route: 'createAlias', body: { name: 'ann.work' } }]);
    const row = await screen.findByRole('listitem', { name: `ann.work@${DOMAIN}` });
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(await screen.findByText(`ann.work@${DOMAIN} created`)).toBeTruthy();
    await waitFor(() => expect(server.accountReads()).toBeGreaterThan(readsBefore));
  });

  it("the server's refusal wins: a name the rules allow but another account holds is shown refused", async () => {
    serve({}, { refuse: () => apiError(409, 'duplicate_aliases') });
    renderAt('/settings/aliases/create');
    const name = await screen.findByRole('textbox', { name: 'Alias name' }, { timeout: 5_000 });
    fireEvent.change(name, { target: { value: 'taken.name' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create alias' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This alias already exists'));
    expect(currentPath()).toBe('/settings/aliases/create');
    // Beside the field, not in the error dialog.
    expect(errorNotices()).toEqual([]);
    fireEvent.change(name, { target: { value: 'taken.names' } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(''));
  });

  it('once the free alias is taken, only a paid one can be bought: its invoice then waits on the list', async () => {
    const { writes } = serve({ aliases: [entry(1, 'ann.free', { kind: 'free' })] });
    renderAt('/settings/aliases/create');
    const name = await screen.findByRole('textbox', { name: 'Alias name' }, { timeout: 5_000 });
    const free = screen.getByRole('radio', { name: 'Free alias' }) as HTMLInputElement;
    expect(free.disabled).toBe(true);
    expect(screen.getByText('You have already taken your free alias.')).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Paid alias' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(name, { target: { value: 'ann.shop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy alias' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/aliases'));
    expect(writes).toEqual([{ route: 'createPaidAlias', body: { name: 'ann.shop' } }]);
    const bill = await screen.findByRole('group', { name: `Invoice for ann.shop@${DOMAIN}` });
    expect(within(bill).getByText('1.00 USDW')).toBeTruthy();
    expect(within(aliasRow(`ann.shop@${DOMAIN}`)).getByText('Awaiting payment')).toBeTruthy();
  });

  it('a second unpaid alias is refused with its SPEC text', async () => {
    serve(
      { aliases: [entry(1, 'ann.free', { kind: 'free' })] },
      { refuse: () => apiError(400, 'alias_max_count_paying') },
    );
    renderAt('/settings/aliases/create');
    const name = await screen.findByRole('textbox', { name: 'Alias name' }, { timeout: 5_000 });
    fireEvent.change(name, { target: { value: 'ann.more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy alias' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('You have an unpaid alias!'));
  });

  it('in Russian, the refusals read as the Russian catalogue says', async () => {
    serve();
    await setLanguage('ru');
    await Promise.all([loadErrorTexts(), loadFeatureTexts()]);
    try {
      renderAt('/settings/aliases/create');
      const name = await screen.findByRole('textbox', { name: 'Имя псевдонима' }, { timeout: 5_000 });
      fireEvent.change(name, { target: { value: '123456789012' } });
      expect((await screen.findByRole('alert')).textContent).toBe('Нельзя создать псевдоним из 12 цифр');
      fireEvent.change(name, { target: { value: 'b123456789012' } });
      await waitFor(() =>
        expect(screen.getByRole('alert').textContent).toBe('Нельзя создать псевдоним из буквы и 12 цифр'),
      );
      expect(screen.getByRole('button', { name: 'Создать псевдоним' })).toBeTruthy();
    } finally {
      await setLanguage('en');
    }
  });
});

describe("settings/aliases: 'I have already paid'", () => {
  const unpaid = { aliases: [entry(2, 'ann.shop', { status: 'unpaid' })], invoices: { 2: invoice('inv-2') } };

  it('not paid yet: the wallet says so beside the alias, not as a failure of the page', async () => {
    const { writes } = serve(unpaid, { wallet: () => 'unpaid' });
    const row = await openRow(`ann.shop@${DOMAIN}`);
    fireEvent.click(within(row).getByRole('button', { name: 'I have already paid' }));
    const answer = await within(row).findByRole('status');
    expect(answer.textContent).toBe("Pay the invoice in the provider's wallet application!");
    expect(writes).toEqual([{ route: 'checkAliasPayment', params: { id: '2' }, body: undefined }]);
    expect(errorNotices()).toEqual([]);
    expect(within(row).getByText('Awaiting payment')).toBeTruthy();
  });

  it('rejected: says the invoice is rejected, and the alias shows failed', async () => {
    serve(unpaid, { wallet: () => 'rejected' });
    const row = await openRow(`ann.shop@${DOMAIN}`);
    fireEvent.click(within(row).getByRole('button', { name: 'I have already paid' }));
    expect((await within(row).findByRole('status')).textContent).toBe('Invoice is rejected');
    expect(await within(row).findByText('Payment failed')).toBeTruthy();
    expect(errorNotices()).toEqual([]);
  });

  it('paid: the alias becomes active and the account (sidebar, compose) is read again', async () => {
    const server = serve(unpaid, { wallet: () => 'paid' });
    const row = await openRow(`ann.shop@${DOMAIN}`);
    const readsBefore = server.accountReads();
    fireEvent.click(within(row).getByRole('button', { name: 'I have already paid' }));
    expect(await within(row).findByText('Active')).toBeTruthy();
    expect(within(row).queryByRole('group', { name: /^Invoice for/ })).toBeNull();
    expect(await screen.findByText(`ann.shop@${DOMAIN} is paid and receives mail from now on`)).toBeTruthy();
    await waitFor(() => expect(server.accountReads()).toBeGreaterThan(readsBefore));
  });

  it('giving up an unpaid alias cancels it through the paid route after a confirmation', async () => {
    const { writes } = serve(unpaid);
    const row = await openRow(`ann.shop@${DOMAIN}`);
    fireEvent.click(within(row).getByRole('button', { name: 'Give up' }));
    const dialog = await screen.findByRole('alertdialog', { name: `Give up ann.shop@${DOMAIN}?` });
    expect(
      within(dialog).getByText('Its invoice is cancelled and the name becomes free for anyone.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Give up' }));
    await waitFor(() =>
      expect(writes).toEqual([{ route: 'deletePaidAlias', params: { id: '2' }, body: undefined }]),
    );
    expect(await screen.findByText('No aliases yet. Your first alias is free.')).toBeTruthy();
  });
});

describe('settings/aliases: delete and password access', () => {
  it('deleting says the mail stays and the address stops receiving, then deletes it', async () => {
    const { writes } = serve({ aliases: [entry(1, 'ann.free', { kind: 'free', password_access: true })] });
    const row = await openRow(`ann.free@${DOMAIN}`);
    fireEvent.click(within(row).getByRole('button', { name: `Delete ann.free@${DOMAIN}` }));
    const dialog = await screen.findByRole('alertdialog', { name: `Delete the alias ann.free@${DOMAIN}?` });
    const text = dialog.textContent!;
    expect(text).toContain(`Mail already received at ann.free@${DOMAIN} stays in your mailbox.`);
    expect(text).toContain(`ann.free@${DOMAIN} stops receiving mail`);
    expect(text).toContain('Password sign-in with it ends too.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(writes).toEqual([{ route: 'deleteAlias', params: { id: '1' }, body: undefined }]),
    );
    expect(
      await screen.findByText(`ann.free@${DOMAIN} deleted; its mail stays in your mailbox`),
    ).toBeTruthy();
  });

  it('deleting a paid alias says its payment is not refunded', async () => {
    serve({ aliases: [entry(1, 'ann.paid', { kind: 'paid' })] });
    const row = await openRow(`ann.paid@${DOMAIN}`);
    fireEvent.click(within(row).getByRole('button', { name: `Delete ann.paid@${DOMAIN}` }));
    const dialog = await screen.findByRole('alertdialog', { name: `Delete the alias ann.paid@${DOMAIN}?` });
    expect(dialog.textContent).toContain('You paid for it: the payment is not refunded.');
  });

  it('a refused delete (payment being checked) shows the SPEC text and keeps the alias', async () => {
    serve(
      { aliases: [entry(1, 'ann.free', { kind: 'free' })] },
      { refuse: () => apiError(400, 'alias_cant_delete') },
    );
    const row = await openRow(`ann.free@${DOMAIN}`);
    fireEvent.click(within(row).getByRole('button', { name: `Delete ann.free@${DOMAIN}` }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(errorNotices()).toEqual(['The alias cannot be deleted']));
    expect(screen.getByRole('listitem', { name: `ann.free@${DOMAIN}`, hidden: true })).toBeTruthy();
  });

  it('the password is typed twice; a mismatch or a short one is refused before anything is sent', async () => {
    const { writes } = serve({ aliases: [entry(1, 'ann.free', { kind: 'free' })] });
    const row = await openRow(`ann.free@${DOMAIN}`);
    fireEvent.click(within(row).getByRole('button', { name: `Password access for ann.free@${DOMAIN}` }));
    const form = await within(row).findByRole('form', { name: `Password access for ann.free@${DOMAIN}` });
    const password = within(form).getByLabelText('New password');
    const confirm = within(form).getByLabelText('Repeat the password');
    fireEvent.change(password, { target: { value: 'short' } });
    fireEvent.change(confirm, { target: { value: 'short' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Set password' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'The password must be at least 8 characters long',
    );
    fireEvent.change(password, { target: { value: 'long enough 1' } });
    fireEvent.change(confirm, { target: { value: 'long enough 2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Set password' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('The passwords do not match');
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(writes).toEqual([]);

    fireEvent.change(confirm, { target: { value: 'long enough 1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Set password' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          route: 'updateAliasAccess',
          body: { email: `ann.free@${DOMAIN}`, password: 'long enough 1', password_confirm: 'long enough 1' },
        },
      ]),
    );
    expect(await within(row).findByText('Free alias · password sign-in on')).toBeTruthy();
    expect(within(row).queryByRole('form')).toBeNull();
  });

  it('too many changes: alias_access_limit is shown in the form', async () => {
    serve(
      { aliases: [entry(1, 'ann.free', { kind: 'free' })] },
      { refuse: () => apiError(429, 'alias_access_limit') },
    );
    const row = await openRow(`ann.free@${DOMAIN}`);
    fireEvent.click(within(row).getByRole('button', { name: `Password access for ann.free@${DOMAIN}` }));
    const form = await within(row).findByRole('form');
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'long enough' } });
    fireEvent.change(within(form).getByLabelText('Repeat the password'), {
      target: { value: 'long enough' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Set password' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Repeated request to change password');
  });

  it('removing password access sends a null password after a confirmation', async () => {
    const { writes } = serve({ aliases: [entry(1, 'ann.free', { kind: 'free', password_access: true })] });
    const row = await openRow(`ann.free@${DOMAIN}`);
    fireEvent.click(within(row).getByRole('button', { name: `Password access for ann.free@${DOMAIN}` }));
    const form = await within(row).findByRole('form');
    fireEvent.click(within(form).getByRole('button', { name: 'Remove password access' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: `Remove password access for ann.free@${DOMAIN}?`,
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove password access' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          route: 'updateAliasAccess',
          body: { email: `ann.free@${DOMAIN}`, password: null },
        },
      ]),
    );
    await waitFor(() => expect(within(row).getByText('Free alias')).toBeTruthy());
  });
});

describe('aliases live', () => {
  it("an alias paid elsewhere appears in the sidebar and on the list on updateAccount 'aliases'", async () => {
    const server = serve({
      aliases: [entry(2, 'ann.shop', { status: 'unpaid' })],
      invoices: { 2: invoice('inv-2') },
    });
    const client = createQueryClient();
    renderAt('/settings/aliases', client);
    const row = await screen.findByRole('listitem', { name: `ann.shop@${DOMAIN}` }, { timeout: 5_000 });
    expect(within(row).getByText('Awaiting payment')).toBeTruthy();
    // Paid on the wallet page: the webhook activates it and the server says so.
    server.aliases[0]!.status = 'succeed';
    applyMailEvent(client, { event: 'updateAccount', part: 'aliases' });
    expect(await within(row).findByText('Active')).toBeTruthy();
    // The account (its aliases: the sidebar's list and compose's From) is read again too.
    await waitFor(() =>
      expect(client.getQueryData<Account>(['user', 'account'])?.aliases).toEqual([
        { id: 2, email: `ann.shop@${DOMAIN}` },
      ]),
    );
  });

  it('the mail sidebar lists a new alias without a reload', async () => {
    const server = serve();
    const client = createQueryClient();
    renderAt('/mail/folder/all/11/1', client);
    await screen.findByRole('tree', { name: 'Folders' }, { timeout: 5_000 });
    expect(screen.queryByRole('list', { name: 'Address' })).toBeNull();
    server.aliases.push(entry(7, 'ann.new'));
    applyMailEvent(client, { event: 'updateAccount', part: 'aliases' });
    const addresses = await screen.findByRole('list', { name: 'Address' });
    expect(within(addresses).getByRole('button', { name: `ann.new@${DOMAIN}` })).toBeTruthy();
  });
});
