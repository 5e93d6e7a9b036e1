// Screenshots of the built app against a mocked API, to look at what we build (DESIGN §6).
// Usage: npx vite build && node scripts/preview-screens.mjs [outDir]   (run from apps/web; starts `vite preview`)
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const outDir = process.argv[2] ?? '/tmp/mailroom-screens';
const port = 4173;
const base = `http://127.0.0.1:${port}`;

const user = {
  email: 'anna.lebedeva@mailroom.test',
  member_id: '104729384756',
  name: 'Anna Lebedeva',
  info: { alias: null },
};
const folder = (id, name, extra = {}) => ({
  id,
  name,
  system: null,
  unread: 0,
  total: 0,
  subfolders: [],
  isCollector: false,
  isSubCollector: false,
  ...extra,
});
const folders = [
  folder(1, 'INBOX', {
    system: 'inbox',
    unread: 12,
    total: 1480,
    subfolders: [
      folder(2, 'INBOX.Sent', { system: 'sent', total: 310 }),
      folder(3, 'INBOX.Drafts', { system: 'draft', total: 4 }),
      folder(4, 'INBOX.Trash', { system: 'trash', total: 27 }),
      folder(5, 'INBOX.Junk', { system: 'junk', unread: 3, total: 9 }),
      folder(6, 'INBOX.Projects', {
        total: 40,
        unread: 2,
        subfolders: [
          folder(7, 'INBOX.Projects.Mailroom', { total: 31 }),
          folder(8, 'INBOX.Projects.Archive 2024'),
        ],
      }),
      folder(9, 'INBOX.Receipts', { total: 210 }),
      folder(10, 'INBOX.import.gmail', { isCollector: true, unread: 5, total: 800 }),
    ],
  }),
];
const account = {
  email: user.email,
  aliases: [{ id: 21, email: 'anna@mailroom.test' }],
  profiles: [],
  settings: { per_page: 30 },
  quota: { size: 318 * 1024, limit: 1024 * 1024 },
  alias_accesses: [],
};

const labels = [
  {
    id: 1,
    name: 'Invoices',
    color: '#e66465',
    search_field: 'subject',
    search_content: 'invoice',
    folder_id: null,
  },
  {
    id: 2,
    name: 'Team',
    color: '#3b82f6',
    search_field: 'from',
    search_content: 'mailroom.test',
    folder_id: null,
  },
];
const people = [
  ['Мария Иванова', 'maria@example.ru'],
  ['GitHub', 'noreply@github.com'],
  ['Payments Bureau', 'billing@payments.example'],
  ['Oleg Petrov', 'oleg@mailroom.test'],
  ['Newsletter', 'news@weekly.example'],
  ['Sam Carter', 'sam@example.com'],
];
const subjects = [
  ['Счёт за ноябрь и акт сверки', 'Добрый день! Во вложении счёт за ноябрь и акт сверки взаиморасчётов.'],
  [
    '[mailroom] Pull request #128: virtualised message list',
    'Oleg requested your review on this pull request.',
  ],
  ['Invoice INV-2026-1142 is ready', 'Your invoice for November is attached. Payment is due in 14 days.'],
  [
    'Re: Planning the December release',
    'Sounds good — let us freeze the branch on Friday and ship on Monday.',
  ],
  [
    'This week: calm software and fast mail',
    'Five reads for the weekend, plus a note on keyboard-first design.',
  ],
  ['Lunch on Thursday?', 'There is a new place near the office that does great pho.'],
];
const now = Date.now();
const messages = Array.from({ length: 75 }, (_, index) => {
  const [name, email] = people[index % people.length];
  const [subject, preview] = subjects[index % subjects.length];
  return {
    id: 1000 - index,
    uid: 1000 - index,
    folder_id: 1,
    subject: index < 6 ? subject : `${subject} (${index})`,
    flags: { seen: index % 3 !== 0, flagged: index % 5 === 1, draft: false },
    labels: index % 4 === 2 ? [1] : index % 7 === 3 ? [2] : [],
    fields: {
      from: [{ name, email }],
      to: [{ name: 'Anna Lebedeva', email: user.email }],
      cc: [],
      bcc: [],
      'reply-to': [],
    },
    preview,
    has_attachments: index % 3 === 0,
    encrypted: false,
    size: 20480,
    created_at: new Date(
      now - index * 3.7 * 3600 * 1000 - (index > 40 ? 400 * 86400 * 1000 : 0),
    ).toISOString(),
    thread_id: index,
  };
});
const b64 = (text) => Buffer.from(text, 'utf8').toString('base64');
const htmlBody = `<div style="font-family:Georgia,serif;max-width:640px"><h2 style="color:#2351c2">Pull request #128</h2>
<p><b>Oleg Petrov</b> requested your review on <a href="https://github.com/example/mailroom/pull/128">virtualised message list</a>.</p>
<img src="https://tracker.example/pixel.gif" width="1" height="1">
<table style="border-collapse:collapse;width:100%"><tr><td style="border:1px solid #ddd;padding:8px">Files changed</td><td style="border:1px solid #ddd;padding:8px">14</td></tr>
<tr><td style="border:1px solid #ddd;padding:8px">Commits</td><td style="border:1px solid #ddd;padding:8px">6</td></tr></table>
<p style="color:#666">You are receiving this because you were mentioned.</p></div>`;
const plainBody = `Добрый день, Анна!

Во вложении счёт за ноябрь и акт сверки взаиморасчётов. Оплатить можно по ссылке https://pay.example.ru/invoice/1142 до 5 декабря.

С уважением,
Мария Иванова
бухгалтерия`;
function mailFor(uid) {
  const item = messages.find((m) => m.uid === uid) ?? messages[0];
  const html = item.subject.startsWith('[mailroom]');
  return {
    ...item,
    fields: {
      ...item.fields,
      to: [
        { name: 'Anna Lebedeva', email: user.email },
        { name: 'Oleg Petrov', email: 'oleg@mailroom.test' },
        { name: 'Sam Carter', email: 'sam@example.com' },
        { name: '', email: 'team@mailroom.test' },
      ],
    },
    content: b64(html ? htmlBody : plainBody),
    content_type: html ? 'text/html' : 'text/plain',
    attachments: item.has_attachments
      ? [
          { id: 1, name: 'Счёт-1142.pdf', size: 183_402 },
          { id: 2, name: 'akt-sverki.xlsx', size: 24_118 },
          { id: 3, name: 'photo.jpg', size: 2_411_724 },
        ]
      : [],
    images_blocked: html,
    message_id: `<${uid}@example.test>`,
  };
}

async function waitForServer() {
  for (let i = 0; i < 50; i++) {
    try {
      if ((await fetch(base)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('vite preview did not start');
}

async function mockApi(page, { signedIn = true, foldersFail = false } = {}) {
  const json = (route, body, status = 200) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  const denied = (route) =>
    json(route, { error: { message: 'Sign-in required', meta: { code: 401, i8s: 'expected_token' } } }, 401);
  await page.route('**/auth/**', (route) => {
    const url = route.request().url();
    if (!signedIn) return denied(route);
    if (url.includes('/auth/access')) return json(route, user);
    if (url.includes('/auth/rids')) return json(route, { rid: user.member_id });
    return json(route, { ok: true });
  });
  await page.route('**/api/v1/**', (route) => {
    const url = route.request().url();
    if (!signedIn) return denied(route);
    if (url.includes('/user/account')) return json(route, account);
    if (url.includes('/labels')) return json(route, { labels });
    const list = url.match(/\/messages\/folder\/(\d+)\?/);
    if (list) {
      const query = new URL(url).searchParams;
      const page = Number(query.get('page') ?? 1);
      const limit = Number(query.get('limit') ?? 30);
      const rows = list[1] === '1' ? messages : [];
      return json(route, {
        messages: rows.slice((page - 1) * limit, page * limit),
        total: rows.length,
        all: rows.length,
      });
    }
    const one = url.match(/\/messages\/(\d+)\/(\d+)/);
    if (one) return json(route, { message: mailFor(Number(one[2])) });
    if (url.includes('/messages/mark')) return json(route, { ok: true });
    if (url.includes('/folders') && !url.includes('/messages/')) {
      if (foldersFail)
        return json(
          route,
          { error: { message: 'boom', meta: { code: 409, i8s: 'folder_already_exist' } } },
          409,
        );
      return json(route, { folders });
    }
    return json(route, { error: { message: 'Not found', meta: { code: 404, i8s: 'not_found' } } }, 404);
  });
}

const preview = spawn(
  'npx',
  ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
  {
    stdio: 'ignore',
    // Its own process group, so npx and the vite it starts are stopped together.
    detached: true,
  },
);
try {
  await waitForServer();
  await mkdir(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const viewports = { desktop: { width: 1440, height: 900 }, mobile: { width: 390, height: 844 } };
  for (const lang of ['en', 'ru']) {
    for (const [device, viewport] of Object.entries(viewports)) {
      const shot = async (name, setup) => {
        const context = await browser.newContext({ viewport, locale: lang === 'ru' ? 'ru-RU' : 'en-US' });
        await context.addCookies([{ name: 'lang', value: lang, url: base }]);
        const page = await context.newPage();
        page.on('pageerror', (error) => console.error(`[${name}] page error:`, error.message));
        await setup(page);
        await page.screenshot({ path: `${outDir}/${name}-${device}-${lang}.png` });
        await context.close();
      };
      await shot('inbox', async (page) => {
        await mockApi(page);
        await page.goto(`${base}/mail`);
        await page.locator('[role="tree"]').first().waitFor({ state: 'attached' });
        await page.waitForURL(/\/mail\/folder\/all\/1\/1$/);
        await page.getByRole('grid').waitFor();
      });
      await shot('message-html', async (page) => {
        await mockApi(page);
        await page.goto(`${base}/mail/folder/all/1/1/999`);
        await page.getByRole('article').waitFor();
        await page.waitForTimeout(500);
      });
      await shot('message-plain', async (page) => {
        await mockApi(page);
        await page.goto(`${base}/mail/folder/all/1/1/1000`);
        await page.getByRole('article').waitFor();
        await page.waitForTimeout(300);
      });
      await shot('selection', async (page) => {
        await mockApi(page);
        await page.goto(`${base}/mail/folder/all/1/2`);
        await page.getByRole('grid').waitFor();
        await page.getByRole('checkbox').nth(2).check();
        await page.getByRole('checkbox').nth(4).check();
        await page.waitForTimeout(200);
      });
      await shot('user-menu', async (page) => {
        await mockApi(page);
        await page.goto(`${base}/mail/folder/all/6/1`);
        if (device === 'mobile') await page.getByRole('button', { name: /Open menu|Открыть меню/ }).click();
        await page.getByRole('button', { name: /Account menu|Меню аккаунта/ }).click();
        await page.getByRole('menuitem', { name: /Log out|Выйти/ }).waitFor();
        await page.getByTestId('member-id').click();
        await page.waitForTimeout(300);
      });
      await shot('settings', async (page) => {
        await mockApi(page);
        await page.goto(`${base}/settings/profiles/edit/3`);
        await page.getByTestId('coming-soon').waitFor();
      });
      await shot('about', async (page) => {
        await mockApi(page, { signedIn: false });
        await page.goto(`${base}/mail`);
        await page.waitForURL(/\/about$/);
        await page.getByTestId('about-page').waitFor();
      });
      await shot('login', async (page) => {
        await mockApi(page, { signedIn: false });
        await page.goto(`${base}/login?noredirect=true`);
        await page.getByTestId('sign-in').waitFor();
      });
      await shot('error', async (page) => {
        await mockApi(page, { foldersFail: true });
        await page.goto(`${base}/mail`);
        await page.getByTestId('error-dialog').waitFor();
        await page.waitForTimeout(1200);
      });
    }
  }
  await browser.close();
  console.log(`screenshots in ${outDir}`);
} finally {
  process.kill(-preview.pid, 'SIGTERM');
}
