import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  AccessResponse,
  AliasEntry,
  DelegatedEmail,
  DnsCheck,
  Domain,
  DomainDetailResponse,
  DomainDkimKey,
  DomainEmail,
  Invoice,
} from '@mailroom/protocol';
import { apiError, folder, testAccount, testUser } from '../../test/fixtures';
import { fakeApi, sent, type FakeRequest, type Sent } from '../../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../../test/render-app';
import { loadErrorTexts, loadFeatureTexts, setLanguage } from '../../i18n';
import { useNotices } from '../../ui/notices-store';
import { useUi } from '../shell';
import { mailboxNavigation } from '../shell/impersonation';

setUpScreenTests();

const TOKEN = 'tok3n';

function domain(id: number, name: string, fields: Partial<Domain> = {}): Domain {
  return {
    id,
    name,
    display_name: name,
    status: 'succeed',
    method: 'dns',
    verification: {
      token: TOKEN,
      txt_name: name,
      txt_value: `mailroom-verification=${TOKEN}`,
      meta_tag: `<meta name="mailroom-verification" content="${TOKEN}">`,
      url: `https://${name}/`,
    },
    failure: null,
    verified_at: null,
    checked_at: null,
    created_at: '2026-11-20T10:00:00Z',
    paid: false,
    invoice: null,
    catch_all_email_id: null,
    emails_count: 0,
    ...fields,
  };
}

function address(id: number, email: string, fields: Partial<DomainEmail> = {}): DomainEmail {
  return {
    id,
    domain_id: 1,
    email,
    status: 'succeed',
    catch_all: false,
    password_access: false,
    delegate: null,
    paid: false,
    invoice: null,
    created_at: '2026-11-21T10:00:00Z',
    ...fields,
  };
}

function invoice(id: string): Invoice {
  return {
    id,
    amount: '5.00',
    currency: 'USDW',
    status: 'unpaid',
    pay_url: `/sandbox/wallet?invoice=${id}`,
    created_at: '2026-11-20T10:00:00Z',
  };
}

/** A 410-character RSA key value, split as the contract says: strings of at most 255 characters. */
const RSA_VALUE = ['v=DKIM1; k=rsa; p=' + 'A'.repeat(237), 'B'.repeat(155)];

function dkimKeys(name: string): DomainDkimKey[] {
  return [
    {
      selector: 'mr20261124r',
      algorithm: 'rsa',
      state: 'active',
      dns_name: `mr20261124r._domainkey.${name}`,
      dns_value: RSA_VALUE,
      created_at: '2026-11-24T10:00:00Z',
      retire_at: null,
    },
    {
      selector: 'mr20261124e',
      algorithm: 'ed25519',
      state: 'retiring',
      dns_name: `mr20261124e._domainkey.${name}`,
      dns_value: ['v=DKIM1; k=ed25519; p=' + 'C'.repeat(43)],
      created_at: '2026-11-24T10:00:00Z',
      retire_at: '2026-12-08T10:00:00Z',
    },
  ];
}

function health(name: string, missing: DnsCheck['kind'][]): DnsCheck[] {
  const record = (kind: DnsCheck['kind'], type: 'TXT' | 'MX', at: string, expected: string): DnsCheck => ({
    kind,
    type,
    name: at,
    expected,
    found: missing.includes(kind) ? [] : [expected],
    ok: !missing.includes(kind),
  });
  return [
    record('verification', 'TXT', name, `mailroom-verification=${TOKEN}`),
    record('mx', 'MX', name, '10 mx.mailroom.test.'),
    record('spf', 'TXT', name, 'v=spf1 include:mailroom.test ~all'),
    record('dkim', 'TXT', `mr20261124r._domainkey.${name}`, RSA_VALUE.join('')),
    record('dmarc', 'TXT', `_dmarc.${name}`, 'v=DMARC1; p=none'),
  ];
}

/**
 * The domains API as the contract (packages/protocol/src/schemas/domains.ts) describes it, over in-memory lists.
 * `verify` says what a confirm or check finds; `refuse` answers a write with an error first. Every write is recorded.
 */
function serve(
  initial: {
    domains?: Domain[];
    emails?: DomainEmail[];
    delegated?: DelegatedEmail[];
    aliases?: AliasEntry[];
    missing?: DnsCheck['kind'][];
    /** Records found but not as expected, by kind. */
    differs?: Partial<Record<DnsCheck['kind'], Pick<DnsCheck, 'found' | 'suggested'>>>;
    user?: AccessResponse;
    passport?: 'none' | 'formal';
    /** The service's public domains (GET user/domains/public). */
    publicDomains?: { id: number; name: string }[];
  } = {},
  options: {
    verify?: (method: string) => Pick<Domain, 'status' | 'failure'>;
    refuse?: (call: Sent) => Response | undefined;
  } = {},
) {
  const domains = (initial.domains ?? []).map((d) => ({ ...d }));
  const emails = (initial.emails ?? []).map((e) => ({ ...e }));
  const writes: Sent[] = [];
  let nextId = 100;
  const detail = (d: Domain): DomainDetailResponse => ({
    domain: d,
    dns: health(d.name, initial.missing ?? []).map((check) =>
      initial.differs?.[check.kind] ? { ...check, ...initial.differs[check.kind], ok: false } : check,
    ),
    dkim: dkimKeys(d.name),
    zone: `${d.name}. 3600 IN MX 10 mx.mailroom.test.\n${d.name}. 3600 IN TXT "v=spf1 include:mailroom.test ~all"`,
  });
  const find = (id: string | undefined) => domains.find((d) => d.id === Number(id));
  const emailOf = (request: FakeRequest) => emails.find((x) => x.id === Number(request.params.emailId))!;
  const bodyOf = (request: FakeRequest) => (request.body ?? {}) as Record<string, unknown>;
  const publicDomains = initial.publicDomains ?? [];
  /** The invoices the wallet has been paid for ('I have already paid' then settles them). */
  const paidInvoices = new Set<string>();
  const security = {
    has_password: false,
    password_email: 'ann@mailroom.test',
    first_name: 'Ann',
    last_name: 'Lee',
    passport_level: initial.passport ?? 'formal',
    impersonation: [],
    ba_impersonation: [],
  };
  const noMessages = { messages: [], total: 0, all: 0 };
  const verifyDomain = (request: FakeRequest) => {
    const d = find(request.params.id)!;
    if (request.route === 'confirmDomain') d.method = bodyOf(request).method as Domain['method'];
    Object.assign(d, options.verify?.(d.method!) ?? { status: 'succeed', failure: null });
    return detail(d);
  };
  const changeEmail = (request: FakeRequest) => {
    const e = emailOf(request);
    const body = bodyOf(request);
    if (request.route === 'domainEmailAccess') e.password_access = body.password !== null;
    else if (request.route === 'updateDomainEmail') e.catch_all = body.catch_all === true;
    else e.delegate = body.member_id ? { member_id: String(body.member_id), name: 'Bob Stone' } : null;
    return { email: e };
  };

  const api = fakeApi(
    {
      domains: () => ({ domains }),
      publicDomains: () => ({ domains: publicDomains }),
      allDomainEmails: () => ({ emails }),
      delegatedEmails: { emails: initial.delegated ?? [] },
      aliases: { aliases: initial.aliases ?? [], free_available: false, domain: 'mailroom.test' },
      domain: ({ params }) =>
        find(params.id) ? detail(find(params.id)!) : apiError(404, 'entity_not_found'),
      domainEmails: ({ params }) => ({ emails: emails.filter((e) => e.domain_id === Number(params.id)) }),
      authLog: { entries: [], total: 0 },
      security,
      baList: security,
      folderMessages: noMessages,
      labelMessages: noMessages,
      message: noMessages,
      createDomain: (request) => {
        const made = domain(nextId++, String(bodyOf(request).name), { status: 'prepared', method: null });
        domains.push(made);
        return { domain: made };
      },
      confirmDomain: verifyDomain,
      checkDomain: verifyDomain,
      rotateDomainDkim: ({ params }) => detail(find(params.id)!),
      checkDomainPayment: apiError(
        400,
        'pay_invoice',
        "Pay the invoice in the provider's wallet application!",
      ),
      deleteDomain: ({ params, query }) => {
        if (query.confirm !== 'delete') return apiError(400, 'delete_word_required');
        domains.splice(domains.indexOf(find(params.id)!), 1);
        return { ok: true };
      },
      createDomainEmail: (request) => {
        const body = bodyOf(request);
        const onPublic = publicDomains.find((p) => p.id === Number(request.params.id));
        const d = find(request.params.id) ?? onPublic!;
        const id = nextId++;
        const made = address(id, `${String(body.name)}@${d.name}`, {
          domain_id: d.id,
          status: onPublic ? 'unpaid' : 'prepared',
          catch_all: body.catch_all === true,
          ...(onPublic ? { paid: true, invoice: invoice(`inv-${id}`) } : {}),
        });
        emails.push(made);
        return { email: made };
      },
      confirmDomainEmail: (request) => {
        const e = emailOf(request);
        e.status = 'succeed';
        return { email: e };
      },
      checkDomainEmailPayment: (request) => {
        const e = emailOf(request);
        if (!paidInvoices.has(e.invoice!.id))
          return apiError(400, 'pay_invoice', "Pay the invoice in the provider's wallet application!");
        Object.assign(e, { status: 'succeed', invoice: { ...e.invoice!, status: 'paid', pay_url: null } });
        return { email: e };
      },
      deleteDomainEmail: (request) => {
        emails.splice(emails.indexOf(emailOf(request)), 1);
        return { ok: true };
      },
      updateDomainEmail: changeEmail,
      delegateDomainEmail: changeEmail,
      domainEmailAccess: changeEmail,
      openDelegated: testUser,
    },
    {
      shell: { folders: [folder(11, 'INBOX', 'inbox')], user: initial.user, account: testAccount() },
      onRequest: (request) => {
        if (request.method === 'GET') return undefined;
        const write = sent(request);
        writes.push(write);
        return options.refuse?.(write);
      },
    },
  );
  return { writes, domains, emails, paidInvoices, calls: api.calls };
}

const errorNotices = () =>
  useNotices
    .getState()
    .queue.filter((notice) => notice.kind === 'error')
    .map((notice) => notice.text);

const row = (name: string) => screen.getByRole('listitem', { name });

describe('settings/domains: the list', () => {
  it('shows each domain with its status in words, and why a verification failed with what was found', async () => {
    serve({
      domains: [
        domain(1, 'example-corp.test', { emails_count: 2 }),
        domain(2, 'fresh.test', { status: 'prepared', method: null }),
        domain(3, 'checking.test', { status: 'waiting' }),
        domain(4, 'wrong.test', {
          status: 'failed',
          failure: { reason: 'wrong_token', found: 'mailroom-verification=other' },
        }),
        domain(5, 'site.test', {
          status: 'failed',
          method: 'meta',
          failure: { reason: 'site_unreachable', found: 'HTTP 503' },
        }),
      ],
    });
    renderAt('/settings/domains');
    await waitFor(() => expect(currentPath()).toBe('/settings/domains/list'), { timeout: 5_000 });
    const corp = await screen.findByRole('listitem', { name: 'example-corp.test' }, { timeout: 5_000 });
    expect(within(corp).getByText('Verified')).toBeTruthy();
    expect(within(corp).getByText('Addresses: 2')).toBeTruthy();
    expect(
      within(corp).getByRole('link', { name: 'Addresses on example-corp.test' }).getAttribute('href'),
    ).toBe('/settings/domains/emails/1');
    expect(
      within(corp).getByRole('link', { name: 'DKIM keys of example-corp.test' }).getAttribute('href'),
    ).toBe('/settings/domains/dkim/1');
    expect(
      within(corp).getByRole('link', { name: 'DNS records of example-corp.test' }).getAttribute('href'),
    ).toBe('/settings/domains/confirm/1');
    expect(within(row('fresh.test')).getByText('Not verified')).toBeTruthy();
    expect(within(row('fresh.test')).getByRole('link', { name: 'Verify fresh.test' })).toBeTruthy();
    // Addresses and DKIM only once verified.
    expect(within(row('fresh.test')).queryByRole('link', { name: /Addresses on/ })).toBeNull();
    expect(within(row('checking.test')).getByText('Being verified')).toBeTruthy();
    const wrong = row('wrong.test');
    expect(within(wrong).getByText('Verification failed')).toBeTruthy();
    expect(
      within(wrong).getByText(
        'A verification record was found, but with another token: mailroom-verification=other',
      ),
    ).toBeTruthy();
    expect(within(row('site.test')).getByRole('note').textContent).toBe(
      'The site https://site.test/ could not be read (no answer, a timeout, a TLS or HTTP error, or a page too big). Found: HTTP 503',
    );
  });

  it("a paid domain shows its invoice; 'I have already paid' shows the wallet's answer beside it", async () => {
    const { writes } = serve({
      domains: [domain(7, 'shop.test', { status: 'unpaid', paid: true, invoice: invoice('inv-7') })],
    });
    renderAt('/settings/domains/list');
    const bill = await screen.findByRole('group', { name: 'Invoice for shop.test' }, { timeout: 5_000 });
    expect(within(bill).getByText('5.00 USDW')).toBeTruthy();
    expect(within(bill).getByRole('link', { name: 'Pay in the wallet' }).getAttribute('href')).toBe(
      '/sandbox/wallet?invoice=inv-7',
    );
    expect(within(row('shop.test')).getByText('Awaiting payment')).toBeTruthy();
    fireEvent.click(within(bill).getByRole('button', { name: 'I have already paid' }));
    expect((await within(bill).findByRole('status')).textContent).toBe(
      "Pay the invoice in the provider's wallet application!",
    );
    expect(writes).toEqual([{ route: 'checkDomainPayment', params: { id: '7' }, body: undefined }]);
    expect(errorNotices()).toEqual([]);
  });
});

describe('settings/domains/list: addresses on our domains', () => {
  it('takes an address on a public domain, shows its invoice, and it is active once the wallet says paid', async () => {
    const { writes, paidInvoices } = serve({ publicDomains: [{ id: 9, name: 'mailroom.club' }] });
    renderAt('/settings/domains/list');
    const section = await screen.findByRole(
      'region',
      { name: 'Addresses on our domains' },
      { timeout: 5_000 },
    );
    expect(within(section).getByText('You have no addresses on our domains yet.')).toBeTruthy();
    expect(within(section).getByText('@mailroom.club')).toBeTruthy();
    fireEvent.change(within(section).getByRole('textbox', { name: 'Address' }), {
      target: { value: ' Ann.Lee ' },
    });
    fireEvent.click(within(section).getByRole('button', { name: 'Take address' }));
    const item = await within(section).findByRole(
      'listitem',
      { name: 'Ann.Lee@mailroom.club' },
      { timeout: 5_000 },
    );
    expect(writes[0]).toEqual({
      route: 'createDomainEmail',
      params: { id: '9' },
      body: { name: 'Ann.Lee', catch_all: false },
    });
    expect(within(item).getByText('Awaiting payment')).toBeTruthy();
    const bill = within(item).getByRole('group', { name: 'Invoice for Ann.Lee@mailroom.club' });
    expect(within(bill).getByText('5.00 USDW')).toBeTruthy();
    expect(within(bill).getByRole('link', { name: 'Pay in the wallet' }).getAttribute('href')).toBe(
      '/sandbox/wallet?invoice=inv-100',
    );
    // No catch-all on the service's domains, and nothing but paying or giving up before it is paid.
    expect(within(item).queryByRole('checkbox')).toBeNull();
    expect(within(item).queryByRole('button', { name: /Password access/ })).toBeNull();

    fireEvent.click(within(bill).getByRole('button', { name: 'I have already paid' }));
    expect((await within(bill).findByRole('status', {}, { timeout: 5_000 })).textContent).toBe(
      "Pay the invoice in the provider's wallet application!",
    );
    paidInvoices.add('inv-100');
    fireEvent.click(within(bill).getByRole('button', { name: 'I have already paid' }));
    await waitFor(() => expect(within(row('Ann.Lee@mailroom.club')).getByText('Active')).toBeTruthy(), {
      timeout: 5_000,
    });
    const active = row('Ann.Lee@mailroom.club');
    expect(within(active).queryByRole('group', { name: /Invoice for/ })).toBeNull();
    expect(
      within(active).getByRole('button', { name: 'Password access for Ann.Lee@mailroom.club' }),
    ).toBeTruthy();
    expect(within(active).getByRole('button', { name: 'Delegate Ann.Lee@mailroom.club' })).toBeTruthy();
    expect(
      useNotices
        .getState()
        .queue.filter((notice) => notice.kind === 'success')
        .map((notice) => notice.text),
    ).toContain('Ann.Lee@mailroom.club is paid');

    fireEvent.click(within(active).getByRole('button', { name: 'Delete Ann.Lee@mailroom.club' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(section).queryByRole('listitem')).toBeNull(), { timeout: 5_000 });
    expect(writes.at(-1)).toEqual({
      route: 'deleteDomainEmail',
      params: { id: '9', emailId: '100' },
      body: undefined,
    });
    expect(errorNotices()).toEqual([]);
  });

  it('a role name or a short one is refused before anything is sent, and an unpaid address can be given up', async () => {
    const { writes } = serve({
      publicDomains: [{ id: 9, name: 'mailroom.club' }],
      emails: [
        address(4, 'bob@mailroom.club', {
          domain_id: 9,
          status: 'unpaid',
          paid: true,
          invoice: invoice('inv-4'),
        }),
        address(5, 'sales@example-corp.test'),
      ],
    });
    renderAt('/settings/domains/list');
    const section = await screen.findByRole(
      'region',
      { name: 'Addresses on our domains' },
      { timeout: 5_000 },
    );
    // Only the addresses on public domains are listed here.
    expect(within(section).getAllByRole('listitem')).toHaveLength(1);
    const name = within(section).getByRole('textbox', { name: 'Address' });
    fireEvent.change(name, { target: { value: 'admin' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Take address' }));
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'), { timeout: 5_000 });
    expect(writes).toEqual([]);

    fireEvent.click(
      within(row('bob@mailroom.club')).getByRole('button', { name: 'Give up bob@mailroom.club' }),
    );
    expect(
      await screen.findByText('Its invoice is cancelled and the name becomes free for anyone.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Give up' }));
    await waitFor(() =>
      expect(writes).toEqual([
        { route: 'deleteDomainEmail', params: { id: '9', emailId: '4' }, body: undefined },
      ]),
    );
    await waitFor(() => expect(within(section).queryByRole('listitem')).toBeNull(), { timeout: 5_000 });
  });

  it('is not shown when the service has no public domains and nothing was taken on one', async () => {
    const { calls } = serve({ domains: [domain(1, 'example-corp.test')] });
    renderAt('/settings/domains/list');
    await screen.findByRole('listitem', { name: 'example-corp.test' }, { timeout: 5_000 });
    await waitFor(() => expect(calls.some((call) => call.route === 'publicDomains')).toBe(true));
    expect(screen.queryByRole('region', { name: 'Addresses on our domains' })).toBeNull();
  });
});

describe('settings/domains/list/create', () => {
  it("the server's refusal shows beside the name, not in the error dialog", async () => {
    const { writes } = serve({}, { refuse: () => apiError(409, 'duplicate_domains') });
    renderAt('/settings/domains/list/create');
    const name = await screen.findByRole('textbox', { name: 'Domain name' }, { timeout: 5_000 });
    fireEvent.change(name, { target: { value: 'taken.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This domain already exists'));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(writes).toEqual([{ route: 'createDomain', body: { name: 'taken.test' } }]);
    expect(errorNotices()).toEqual([]);
    expect(currentPath()).toBe('/settings/domains/list/create');
  });

  it('without a passport the form says so before anything is typed, and sends nothing', async () => {
    const { writes } = serve({ passport: 'none' });
    renderAt('/settings/domains/list/create');
    const note = await screen.findByRole('note', {}, { timeout: 5_000 });
    expect(note.textContent).toMatch(/^A domain needs a passport of at least formal level in your wallet/);
    fireEvent.change(screen.getByRole('textbox', { name: 'Domain name' }), {
      target: { value: 'corp.test' },
    });
    expect(screen.getByRole('button', { name: 'Add domain' })).toHaveProperty('disabled', true);
    expect(writes).toEqual([]);
  });

  it('a pasted web address is taken for its host', async () => {
    const { writes } = serve();
    renderAt('/settings/domains/list/create');
    const name = await screen.findByRole('textbox', { name: 'Domain name' }, { timeout: 5_000 });
    fireEvent.change(name, { target: { value: 'http://AnnLee.example/' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/domains/confirm/100'));
    expect(writes[0]).toEqual({ route: 'createDomain', body: { name: 'annlee.example' } });
  });

  it('a new domain goes on to its verification', async () => {
    serve();
    renderAt('/settings/domains/list/create');
    const name = await screen.findByRole('textbox', { name: 'Domain name' }, { timeout: 5_000 });
    fireEvent.change(name, { target: { value: ' example-corp.test. ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/domains/confirm/100'));
    expect(await screen.findByRole('heading', { name: 'Verify example-corp.test' })).toBeTruthy();
  });
});

describe('settings/domains/confirm/{id}', () => {
  beforeEach(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: vi.fn(async () => {}) },
      configurable: true,
    });
  });

  it('shows exactly what to publish for DNS or the meta tag, with copy buttons, and Check confirms by that method', async () => {
    const { writes } = serve(
      { domains: [domain(1, 'example-corp.test', { status: 'prepared', method: null })] },
      { verify: () => ({ status: 'succeed', failure: null }) },
    );
    renderAt('/settings/domains/confirm/1');
    const publish = await screen.findByRole('region', { name: 'What to publish' }, { timeout: 5_000 });
    expect(within(publish).getByText('mailroom-verification=tok3n')).toBeTruthy();
    fireEvent.click(within(publish).getByRole('button', { name: "Copy the record's value" }));
    await waitFor(() =>
      expect(navigator.clipboard.writeText).toHaveBeenCalledWith('mailroom-verification=tok3n'),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'A meta tag on the web site' }));
    expect(within(publish).getByText('<meta name="mailroom-verification" content="tok3n">')).toBeTruthy();
    expect(within(publish).getByText(/https:\/\/example-corp\.test\//)).toBeTruthy();
    fireEvent.click(within(publish).getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('example-corp.test is verified')).toBeTruthy();
    expect(writes).toEqual([{ route: 'confirmDomain', params: { id: '1' }, body: { method: 'meta' } }]);
    // Checked again with the same method: check, not a new confirm.
    fireEvent.click(within(publish).getByRole('button', { name: 'Check' }));
    await waitFor(() =>
      expect(writes[1]).toEqual({ route: 'checkDomain', params: { id: '1' }, body: undefined }),
    );
  });

  it('a failed check says why, in words', async () => {
    serve(
      { domains: [domain(1, 'example-corp.test', { status: 'prepared', method: null })] },
      { verify: () => ({ status: 'failed', failure: { reason: 'record_not_found', found: null } }) },
    );
    renderAt('/settings/domains/confirm/1');
    const publish = await screen.findByRole('region', { name: 'What to publish' }, { timeout: 5_000 });
    fireEvent.click(within(publish).getByRole('button', { name: 'Check' }));
    expect((await within(publish).findByRole('note')).textContent).toBe(
      'No TXT record mailroom-verification was found on example-corp.test.',
    );
    expect(screen.getByText('Verification failed')).toBeTruthy();
  });

  it('the DNS health table shows expected against found, and says what each missing record means', async () => {
    serve({ domains: [domain(1, 'example-corp.test')], missing: ['mx', 'dmarc'] });
    renderAt('/settings/domains/confirm/1');
    const table = await screen.findByRole('table', { name: 'DNS health' }, { timeout: 5_000 });
    const mx = within(table).getByRole('row', { name: 'MX example-corp.test' });
    expect(within(mx).getByText('10 mx.mailroom.test.')).toBeTruthy();
    expect(within(mx).getByText('nothing')).toBeTruthy();
    expect(within(mx).getByText('Missing')).toBeTruthy();
    expect(
      within(mx).getByText(
        'Without it no mail for the domain reaches your mailbox, and addresses on it cannot be activated.',
      ),
    ).toBeTruthy();
    const dmarc = within(table).getByRole('row', { name: 'DMARC _dmarc.example-corp.test' });
    expect(within(dmarc).getByText(/Without it receivers have no rule for mail forged/)).toBeTruthy();
    const spf = within(table).getByRole('row', { name: 'SPF example-corp.test' });
    expect(within(spf).getByText('OK')).toBeTruthy();
    expect(within(spf).queryByText(/Without it/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Copy the zone snippet' }));
    await waitFor(() =>
      expect(navigator.clipboard.writeText).toHaveBeenCalledWith(
        expect.stringContaining('example-corp.test. 3600 IN MX 10 mx.mailroom.test.'),
      ),
    );
  });

  it('a present but wrong SPF record is said to differ, with the one record to publish in its place', async () => {
    serve({
      domains: [domain(1, 'example-corp.test')],
      differs: {
        spf: {
          found: ['v=spf1 a -all'],
          suggested: 'v=spf1 a include:mailroom.test -all',
        },
      },
    });
    renderAt('/settings/domains/confirm/1');
    const table = await screen.findByRole('table', { name: 'DNS health' }, { timeout: 5_000 });
    const spf = within(table).getByRole('row', { name: 'SPF example-corp.test' });
    expect(within(spf).queryByText('Missing')).toBeNull();
    expect(within(spf).getByText('Differs')).toBeTruthy();
    expect(within(spf).getByText(/Your SPF record does not let us send for the domain/)).toBeTruthy();
    expect(within(spf).getByText('Publish this one record in place of what was found:')).toBeTruthy();
    fireEvent.click(within(spf).getByRole('button', { name: 'Copy the record to publish' }));
    await waitFor(() =>
      expect(navigator.clipboard.writeText).toHaveBeenCalledWith('v=spf1 a include:mailroom.test -all'),
    );
  });

  it('the DKIM key in the health table is clipped to two lines, and its copy button copies all of it', async () => {
    serve({ domains: [domain(1, 'example-corp.test')], missing: ['dkim'] });
    renderAt('/settings/domains/confirm/1');
    const table = await screen.findByRole('table', { name: 'DNS health' }, { timeout: 5_000 });
    const dkim = within(table).getByRole('row', { name: /^DKIM / });
    const value = within(dkim).getByText(RSA_VALUE.join(''));
    expect(value.getAttribute('title')).toBe(RSA_VALUE.join(''));
    expect(value.className).toMatch(/clamped/);
    fireEvent.click(within(dkim).getByRole('button', { name: 'Copy the expected value' }));
    await waitFor(() => expect(navigator.clipboard.writeText).toHaveBeenCalledWith(RSA_VALUE.join('')));
  });

  it("another account's id (or none) is said to be no domain of yours", async () => {
    serve({ domains: [] });
    renderAt('/settings/domains/confirm/9');
    expect(
      await screen.findByText('There is no such domain among yours.', {}, { timeout: 5_000 }),
    ).toBeTruthy();
  });
});

describe('settings/domains/dkim/{id}', () => {
  it('shows each key with its selector, algorithm, state and retire date, and its value as strings of at most 255', async () => {
    const { writes } = serve({ domains: [domain(1, 'example-corp.test')] });
    renderAt('/settings/domains/dkim/1');
    const rsa = await screen.findByRole('listitem', { name: 'mr20261124r · RSA-2048' }, { timeout: 5_000 });
    expect(within(rsa).getByText('Active')).toBeTruthy();
    expect(within(rsa).getByText('mr20261124r._domainkey.example-corp.test')).toBeTruthy();
    const strings = within(within(rsa).getByRole('list', { name: "The value's strings" })).getAllByRole(
      'listitem',
    );
    expect(strings.map((s) => s.querySelector('code')!.textContent)).toEqual(RSA_VALUE);
    for (const s of strings) expect(s.querySelector('code')!.textContent!.length).toBeLessThanOrEqual(255);
    expect(within(rsa).getByRole('button', { name: 'Copy string 2 of 2' })).toBeTruthy();
    const ed = screen.getByRole('listitem', { name: 'mr20261124e · Ed25519' });
    expect(within(ed).getByText('Retiring')).toBeTruthy();
    expect(within(ed).getByText(/may be removed after/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Rotate keys' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Rotate the DKIM keys of example-corp.test?',
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate keys' }));
    await waitFor(() =>
      expect(writes).toEqual([{ route: 'rotateDomainDkim', params: { id: '1' }, body: undefined }]),
    );
  });
});

describe('settings/domains/remove/{id}', () => {
  it('removes only once the word delete is typed, saying its addresses stop receiving, then goes back to the list', async () => {
    const { writes } = serve({ domains: [domain(1, 'example-corp.test', { emails_count: 2 })] });
    renderAt('/settings/domains/remove/1');
    const word = await screen.findByRole('textbox', { name: 'Type delete to confirm' }, { timeout: 5_000 });
    expect(
      screen.getByText(/example-corp\.test and its addresses \(there are 2\) stop receiving mail/),
    ).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Remove' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(word, { target: { value: 'delet' } });
    expect(button.disabled).toBe(true);
    fireEvent.change(word, { target: { value: 'delete' } });
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(currentPath()).toBe('/settings/domains/list'));
    expect(writes).toEqual([
      { route: 'deleteDomain', params: { id: '1' }, query: { confirm: 'delete' }, body: undefined },
    ]);
    expect(await screen.findByText('No domains yet.')).toBeTruthy();
  });

  it('a paid domain says its payment is not refunded; an unpaid one that its invoice is cancelled', async () => {
    serve({
      domains: [
        domain(1, 'paid-corp.test', { paid: true }),
        domain(2, 'unpaid-corp.test', { paid: true, status: 'unpaid' }),
        domain(3, 'free-corp.test', { paid: false }),
      ],
    });
    renderAt('/settings/domains/remove/1');
    await screen.findByRole('textbox', { name: 'Type delete to confirm' }, { timeout: 5_000 });
    expect(screen.getByText('You paid for it: the payment is not refunded.')).toBeTruthy();
    cleanup();
    renderAt('/settings/domains/remove/2');
    await screen.findByRole('textbox', { name: 'Type delete to confirm' }, { timeout: 5_000 });
    expect(screen.getByText('Its unpaid invoice is cancelled.')).toBeTruthy();
    cleanup();
    renderAt('/settings/domains/remove/3');
    await screen.findByRole('textbox', { name: 'Type delete to confirm' }, { timeout: 5_000 });
    expect(screen.queryByText(/refunded|invoice/)).toBeNull();
  });
});

describe('settings/domains/emails/{id}', () => {
  const corp = domain(1, 'example-corp.test', { emails_count: 1 });
  const sales5 = address(5, 'sales@example-corp.test');
  /** The addresses of example-corp.test, drawn: the row of sales@ (served by the test). */
  const openSales = async () => {
    renderAt('/settings/domains/emails/1');
    return screen.findByRole('listitem', { name: 'sales@example-corp.test' }, { timeout: 5_000 });
  };

  it('creates an address and activates it; the MX pointing elsewhere is said clearly and it stays prepared', async () => {
    const server = serve(
      { domains: [corp] },
      {
        refuse: (call) =>
          call.route === 'confirmDomainEmail' ? apiError(400, 'invalid_domain_for_mail_server') : undefined,
      },
    );
    renderAt('/settings/domains/emails/1');
    const name = await screen.findByRole('textbox', { name: 'Address' }, { timeout: 5_000 });
    expect(screen.getByText('@example-corp.test')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'sales' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Catch-all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create address' }));
    const sales = await screen.findByRole('listitem', { name: 'sales@example-corp.test' });
    expect((await within(sales).findByRole('alert')).textContent).toContain(
      'the MX record of example-corp.test does not point at our mail server',
    );
    expect(within(sales).getByText('Not receiving yet')).toBeTruthy();
    expect(within(sales).getByRole('link', { name: 'See the DNS table' }).getAttribute('href')).toBe(
      '/settings/domains/confirm/1',
    );
    expect(server.writes.map((w) => [w.route, w.params])).toEqual([
      ['createDomainEmail', { id: '1' }],
      ['confirmDomainEmail', { emailId: '100' }],
    ]);
    expect(server.writes[0]!.body).toEqual({ name: 'sales', catch_all: true });
    expect(errorNotices()).toEqual([]);
  });

  it('an address whose domain points at us is active at once', async () => {
    serve({ domains: [corp] });
    renderAt('/settings/domains/emails/1');
    const name = await screen.findByRole('textbox', { name: 'Address' }, { timeout: 5_000 });
    fireEvent.change(name, { target: { value: 'sales' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create address' }));
    const sales = await screen.findByRole('listitem', { name: 'sales@example-corp.test' });
    expect(await within(sales).findByText('Active')).toBeTruthy();
  });

  it('a local part the alias rules refuse is refused before anything is sent', async () => {
    const { writes } = serve({ domains: [corp] });
    renderAt('/settings/domains/emails/1');
    const name = await screen.findByRole('textbox', { name: 'Address' }, { timeout: 5_000 });
    fireEvent.change(name, { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create address' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Specify from 3 to 30 characters');
    fireEvent.change(name, { target: { value: 'a..b' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid alias');
    expect(writes).toEqual([]);
  });

  it("a role name (the stop list) is the server's to refuse on an own domain: its refusal shows beside the name", async () => {
    const { writes } = serve({ domains: [corp] }, { refuse: () => apiError(400, 'alias_stoplist') });
    renderAt('/settings/domains/emails/1');
    const name = await screen.findByRole('textbox', { name: 'Address' }, { timeout: 5_000 });
    fireEvent.change(name, { target: { value: 'postmaster' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create address' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Cannot be created with given name'),
    );
    expect(writes).toEqual([
      {
        route: 'createDomainEmail',
        params: { id: '1' },
        body: { name: 'postmaster', catch_all: false },
      },
    ]);
    expect(errorNotices()).toEqual([]);
  });

  it('catch-all on, delegation to a member and back, and the delegate is shown', async () => {
    const { writes } = serve({ domains: [corp], emails: [sales5] });
    const sales = await openSales();
    fireEvent.click(within(sales).getByRole('checkbox', { name: 'Catch-all: sales@example-corp.test' }));
    expect(await within(sales).findByText(/catch-all/)).toBeTruthy();

    fireEvent.click(within(sales).getByRole('button', { name: 'Delegate sales@example-corp.test' }));
    const form = within(sales).getByRole('form', { name: 'Delegate sales@example-corp.test' });
    const member = within(form).getByRole('textbox', { name: 'Member ID' });
    fireEvent.change(member, { target: { value: '12x' } });
    expect(within(form).getByRole('alert').textContent).not.toBe('');
    fireEvent.change(member, { target: { value: '222233334444' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Delegate' }));
    expect(await within(sales).findByText(/delegated to Bob Stone \(222233334444\)/)).toBeTruthy();

    fireEvent.click(
      within(sales).getByRole('button', { name: 'Remove the delegation of sales@example-corp.test' }),
    );
    // Removing a delegation asks first (issue 28 item 23).
    const confirm = await screen.findByRole('alertdialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove delegation' }));
    await waitFor(() => expect(within(sales).queryByText(/delegated to/)).toBeNull());
    const salesParams = { id: '1', emailId: '5' };
    expect(writes.map((w) => [w.route, w.params, w.body])).toEqual([
      ['updateDomainEmail', salesParams, { catch_all: true }],
      ['delegateDomainEmail', salesParams, { member_id: '222233334444' }],
      ['delegateDomainEmail', salesParams, { member_id: null }],
    ]);
  });

  it('delegating to oneself is refused with its text in the form', async () => {
    serve({ domains: [corp], emails: [sales5] }, { refuse: () => apiError(400, 'delegate_self') });
    const sales = await openSales();
    fireEvent.click(within(sales).getByRole('button', { name: 'Delegate sales@example-corp.test' }));
    const form = within(sales).getByRole('form');
    fireEvent.change(within(form).getByRole('textbox', { name: 'Member ID' }), {
      target: { value: '111122223333' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Delegate' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'You cannot delegate an address to yourself',
    );
    expect(errorNotices()).toEqual([]);
  });

  it('password access is typed twice and must match before it is sent', async () => {
    const { writes } = serve({ domains: [corp], emails: [sales5] });
    const sales = await openSales();
    fireEvent.click(
      within(sales).getByRole('button', { name: 'Password access for sales@example-corp.test' }),
    );
    const form = within(sales).getByRole('form', { name: 'Password access for sales@example-corp.test' });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'long enough 1' } });
    fireEvent.change(within(form).getByLabelText('Repeat the password'), {
      target: { value: 'long enough 2' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Set password' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('The passwords do not match');
    expect(writes).toEqual([]);
    fireEvent.change(within(form).getByLabelText('Repeat the password'), {
      target: { value: 'long enough 1' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Set password' }));
    await waitFor(() =>
      expect(writes).toEqual([
        {
          route: 'domainEmailAccess',
          params: { id: '1', emailId: '5' },
          body: { password: 'long enough 1', password_confirm: 'long enough 1' },
        },
      ]),
    );
    expect(await within(sales).findByText(/password sign-in on/)).toBeTruthy();
  });

  it('deleting says the mail is kept, then deletes it', async () => {
    const { writes } = serve({ domains: [corp], emails: [sales5] });
    const sales = await openSales();
    fireEvent.click(within(sales).getByRole('button', { name: 'Delete sales@example-corp.test' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Delete the address sales@example-corp.test?',
    });
    expect(dialog.textContent).toContain(
      'Mail already received at sales@example-corp.test stays in your mailbox.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(writes).toEqual([
        { route: 'deleteDomainEmail', params: { id: '1', emailId: '5' }, body: undefined },
      ]),
    );
    expect(await screen.findByText('No addresses on this domain yet.')).toBeTruthy();
  });
});

describe('settings/d_emails and the delegated view', () => {
  const delegated: DelegatedEmail[] = [
    {
      email: 'sales@example-corp.test',
      owner: { member_id: '111122223333', name: 'Ann Lee' },
      since: '2026-11-22T10:00:00Z',
    },
  ];
  afterEach(() => useUi.setState({ settled: false }));

  it("lists the addresses delegated to me with the owner's name and member ID; Open switches into one", async () => {
    const { writes } = serve({ delegated });
    const assign = vi.spyOn(mailboxNavigation, 'assign').mockImplementation(() => {});
    renderAt('/settings/d_emails');
    const item = await screen.findByRole('listitem', { name: 'sales@example-corp.test' }, { timeout: 5_000 });
    expect(within(item).getByText(/From Ann Lee \(111122223333\), since/)).toBeTruthy();
    fireEvent.click(within(item).getByRole('button', { name: 'Open sales@example-corp.test' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/mail'));
    expect(writes).toEqual([{ route: 'openDelegated', body: { email: 'sales@example-corp.test' } }]);
  });

  it('the sidebar lists them once the first screen is drawn, and opens one on a click', async () => {
    const { writes } = serve({ delegated });
    const assign = vi.spyOn(mailboxNavigation, 'assign').mockImplementation(() => {});
    renderAt('/mail/folder/all/11/1');
    const list = await screen.findByRole('list', { name: 'Delegated to me' }, { timeout: 5_000 });
    fireEvent.click(within(list).getByRole('button', { name: 'sales@example-corp.test' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/mail'));
    expect(writes.map((w) => w.route)).toEqual(['openDelegated']);
  });

  it('in a delegated session the bar names the address and leads back to my mailbox', async () => {
    const { writes } = serve({
      user: {
        ...testUser,
        email: 'sales@example-corp.test',
        info: {
          alias: 'sales@example-corp.test',
          impersonator: { member_id: '222233334444', email: 'bob@mailroom.test' },
        },
      },
    });
    const assign = vi.spyOn(mailboxNavigation, 'assign').mockImplementation(() => {});
    renderAt('/mail/folder/all/11/1');
    const bar = await screen.findByTestId('impersonation-bar', {}, { timeout: 5_000 });
    expect(bar.textContent).toContain(
      'You are in sales@example-corp.test, delegated to you. You opened it as bob@mailroom.test.',
    );
    // A delegated session has no delegations of its own to list.
    expect(screen.queryByRole('list', { name: 'Delegated to me' })).toBeNull();
    fireEvent.click(within(bar).getByRole('button', { name: 'Back to my mailbox' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/mail'));
    expect(writes.map((w) => w.route)).toEqual(['endImpersonation']);
  });
});

describe('settings/access: password access to addresses', () => {
  it('lists the aliases and domain addresses with password access, each linked to where it is set', async () => {
    const { calls } = serve({
      domains: [domain(1, 'example-corp.test', { emails_count: 2 }), domain(2, 'second.test')],
      publicDomains: [{ id: 9, name: 'mailroom.club' }],
      emails: [
        address(5, 'sales@example-corp.test', { password_access: true }),
        address(6, 'info@example-corp.test'),
        address(7, 'office@second.test', { domain_id: 2 }),
        address(8, 'ann@mailroom.club', { domain_id: 9, password_access: true }),
      ],
      aliases: [
        {
          id: 3,
          email: 'ann.free@mailroom.test',
          kind: 'free',
          status: 'succeed',
          password_access: true,
          created_at: '2026-11-20T10:00:00Z',
        },
      ],
    });
    renderAt('/settings/access');
    const list = await screen.findByRole(
      'list',
      { name: 'Addresses with password access' },
      { timeout: 5_000 },
    );
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('link')
          .map((link) => [link.getAttribute('aria-label'), link.getAttribute('href')]),
      ).toEqual([
        ['Manage password access for ann.free@mailroom.test', '/settings/aliases'],
        ['Manage password access for sales@example-corp.test', '/settings/domains/emails/1'],
        ['Manage password access for ann@mailroom.club', '/settings/domains/list'],
      ]),
    );
    // One read of every domain address, not one per domain.
    const reads = calls.filter((call) => call.method === 'GET' && /domainEmails/i.test(call.route));
    expect(reads.map((call) => call.route)).toEqual(['allDomainEmails']);
  });
});

describe('in Russian', () => {
  it('statuses, failure reasons and what a missing record means read in Russian', async () => {
    serve({
      domains: [
        domain(1, 'example-corp.test', {
          status: 'failed',
          failure: { reason: 'record_not_found', found: null },
        }),
      ],
      missing: ['spf'],
    });
    await setLanguage('ru');
    await Promise.all([loadErrorTexts(), loadFeatureTexts()]);
    try {
      renderAt('/settings/domains/list');
      const item = await screen.findByRole('listitem', { name: 'example-corp.test' }, { timeout: 5_000 });
      expect(within(item).getByText('Проверка не пройдена')).toBeTruthy();
      expect(
        within(item).getByText('На example-corp.test не найдена TXT-запись mailroom-verification.'),
      ).toBeTruthy();
      fireEvent.click(within(item).getByRole('link', { name: 'Подтвердить example-corp.test' }));
      const table = await screen.findByRole('table', { name: 'Состояние DNS' });
      expect(within(table).getByText(/Без неё получатели не узнают/)).toBeTruthy();
    } finally {
      await setLanguage('en');
    }
  });
});
