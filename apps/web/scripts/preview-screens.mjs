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
    if (url.includes('/folders')) {
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
