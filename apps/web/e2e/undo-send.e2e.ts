import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer, signUp } from './_harness.js';

const { url } = sharedServer();
const browser = await launchBrowser();

const write = { 'x-mailroom-csrf': '1', origin: url };
const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

async function api<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(`${url}/api/v1/${path}`, { method, headers: write, data });
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

interface FolderNode {
  id: number;
  system: string | null;
  subfolders: FolderNode[];
}

async function systemFolder(page: Page, system: string): Promise<number> {
  const { folders } = await api<{ folders: FolderNode[] }>(page, 'GET', 'folders');
  const all = (list: FolderNode[]): FolderNode[] => list.flatMap((f) => [f, ...all(f.subfolders)]);
  const found = all(folders).find((folder) => folder.system === system);
  if (!found) throw new Error(`no ${system} folder`);
  return found.id;
}

/** The subjects in a member's folder, as the API lists them (a check apart from the screen). */
async function subjectsIn(page: Page, folderId: number): Promise<string[]> {
  const { messages } = await api<{ messages: { subject: string }[] }>(
    page,
    'GET',
    `messages/folder/${folderId}?page=1&limit=200`,
  );
  return messages.map((message) => message.subject);
}

/** Polls until `subject` is in the folder; the time it was first seen. */
async function arrival(page: Page, folderId: number, subject: string, timeoutMs: number): Promise<number> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if ((await subjectsIn(page, folderId)).includes(subject)) return Date.now();
    await page.waitForTimeout(250);
  }
  throw new Error(`${subject} did not arrive in ${timeoutMs} ms`);
}

/** The success box once it says `text` (a newer notice replaces an older one). */
async function notice(page: Page, text: RegExp) {
  const box = page.getByTestId('success-dialog').filter({ hasText: text });
  await box.waitFor({ timeout: 15_000 });
  return box;
}

async function setUndoSend(page: Page, label: string, seconds: number) {
  await page.goto(`${url}/settings/main`);
  // The label is the setting's name followed by its hint.
  const select = page.getByLabel(new RegExp(`^${label}`));
  await select.waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
    await screenshot(page, 'debug-undo-settings');
    throw error;
  });
  await select.scrollIntoViewIfNeeded();
  // Saved as it is changed: wait for that answer (listening from before the change, which may answer at once).
  await Promise.all([
    page.waitForResponse((response) => response.url().endsWith('/api/v1/user/settings')),
    select.selectOption(String(seconds)),
  ]);
}

async function writeTo(page: Page, newMessage: string, to: string, subject: string, body: string) {
  // The sidebar's button on a desktop, the floating one on a phone.
  await page.getByRole('button', { name: newMessage }).locator('visible=true').first().click();
  const compose = page.getByTestId('compose-window');
  await compose.waitFor();
  const field = compose.getByRole('combobox').first();
  await field.fill(to);
  await field.press('Tab');
  await compose.getByRole('listitem').filter({ hasText: to }).waitFor();
  await compose.getByRole('textbox').last().click();
  await page.keyboard.type(body);
  await compose.locator(`input[maxlength="998"]`).fill(subject);
  return compose;
}

describe('undo send and send later (issue 31)', () => {
  it('Undo at 5 s of a 10-s hold brings the window back and sends nothing; a reloaded page still sends; Send later arrives on time', async () => {
    const ann = await newPage(browser, desktop);
    const boris = await newPage(browser, desktop);
    await signUp(ann.page, url, 'Ann Undo');
    await signUp(boris.page, url, 'Boris Waits');
    const borisAddress = (await api<{ email: string }>(boris.page, 'GET', 'user/account')).email;
    const borisInbox = await systemFolder(boris.page, 'inbox');
    const a = ann.page;

    // Settings › General: Undo send 10 s.
    await setUndoSend(a, 'Undo send', 10);
    await screenshot(a, 'undo-send-settings-desktop-en');

    // Send, and Undo at about 5 s: the window comes back as it was, and nothing reaches Boris.
    await a.goto(`${url}/mail`);
    const first = 'Undo me — план';
    let compose = await writeTo(a, 'New message', borisAddress, first, 'Text to take back.');
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    const sentAt = Date.now();
    const box = a.getByTestId('success-dialog');
    await notice(a, /Sending…\s*Goes in (10|9|8) s/);
    await a.waitForTimeout(2_000);
    await screenshot(a, 'undo-send-countdown-desktop-en');
    await a.waitForTimeout(Math.max(0, sentAt + 5_000 - Date.now()));
    await box.getByRole('button', { name: 'Undo' }).click();
    compose = a.getByTestId('compose-window');
    await compose.waitFor();
    await expect(compose.locator('input[maxlength="998"]').inputValue()).resolves.toBe(first);
    await expect(compose.getByRole('textbox').last().textContent()).resolves.toContain('Text to take back.');
    await expect(compose.getByRole('listitem').filter({ hasText: borisAddress }).count()).resolves.toBe(1);
    await screenshot(a, 'undo-send-restored-desktop-en');
    await a.waitForTimeout(Math.max(0, sentAt + 13_000 - Date.now()));
    expect(await subjectsIn(boris.page, borisInbox)).not.toContain(first);

    // Send the restored window again and reload at once: the server still sends it after the hold.
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await notice(a, /Sending…/);
    const againAt = Date.now();
    await a.reload();
    await a.waitForTimeout(4_000);
    expect(await subjectsIn(boris.page, borisInbox)).not.toContain(first);
    const arrived = await arrival(boris.page, borisInbox, first, 30_000);
    expect(arrived - againAt).toBeGreaterThanOrEqual(8_000);

    // Send later › Pick a time, the next minute but one: listed in Scheduled, delivered within its minute + 5 s.
    await a.goto(`${url}/mail`);
    const later = 'Later — через минуту';
    compose = await writeTo(a, 'New message', borisAddress, later, 'Scheduled text.');
    await compose.getByRole('button', { name: 'Later: pick when it goes' }).click();
    await a.getByRole('menuitem', { name: 'Pick a time…' }).click();
    const picker = compose.getByLabel('Send at');
    const picked = await a.evaluate(() => {
      const at = new Date(Date.now() + 60_000);
      at.setSeconds(0, 0);
      if (at.getTime() - Date.now() < 45_000) at.setMinutes(at.getMinutes() + 1);
      const pad = (value: number) => String(value).padStart(2, '0');
      return {
        value: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`,
        time: at.getTime(),
      };
    });
    await picker.fill(picked.value);
    await screenshot(a, 'send-later-picker-desktop-en');
    await compose.getByRole('button', { name: 'Schedule' }).click();
    await notice(a, /Scheduled for .*\d\d:\d\d/);

    // Another, for tomorrow morning, sent now from the Scheduled banner.
    const tomorrow = 'Tomorrow — sent now';
    compose = await writeTo(a, 'New message', borisAddress, tomorrow, 'Banner text.');
    await compose.getByRole('button', { name: 'Later: pick when it goes' }).click();
    await a.getByRole('menuitem', { name: 'Tomorrow morning' }).click();
    await notice(a, /Scheduled for .*08:00/);

    const { scheduled } = await api<{ scheduled: { folder_id: number; uid: number; send_at: string }[] }>(
      a,
      'GET',
      'scheduled-sends',
    );
    expect(scheduled).toHaveLength(2);
    expect(Date.parse(scheduled[0]!.send_at)).toBe(picked.time);
    await a.goto(`${url}/mail/folder/all/${scheduled[0]!.folder_id}/1`);
    const grid = a.getByRole('grid', { name: 'Messages' });
    await grid.getByText(later).waitFor();
    await grid.getByText(tomorrow).click();
    const banner = a.getByTestId('scheduled-banner');
    await expect(banner.textContent()).resolves.toMatch(/Will be sent .*08:00/);
    await screenshot(a, 'scheduled-banner-desktop-en');
    await banner.getByRole('button', { name: 'Send now' }).click();
    await arrival(boris.page, borisInbox, tomorrow, 15_000);

    const due = await arrival(boris.page, borisInbox, later, picked.time + 70_000 - Date.now());
    expect(due).toBeGreaterThanOrEqual(picked.time - 1_000);
    expect(due).toBeLessThanOrEqual(picked.time + 5_000);
    console.log(
      `send later: due ${new Date(picked.time).toISOString()}, arrived ${due - picked.time} ms after`,
    );
    await ann.context.close();
    await boris.context.close();
  }, 240_000);

  it('two tabs of one member: the Sending… box of tab A closes when tab B cancels the send, and finishes when B sends it now', async () => {
    // One browser context: the tabs share the member's session, as two tabs of one browser do.
    const { context, page: a } = await newPage(browser, desktop);
    await signUp(a, url, 'Tara Tabs');
    const own = (await api<{ email: string }>(a, 'GET', 'user/account')).email;
    const inbox = await systemFolder(a, 'inbox');
    const scheduledFolder = await systemFolder(a, 'scheduled');
    await setUndoSend(a, 'Undo send', 30);
    const b = await context.newPage();
    await b.setViewportSize(desktop);

    /** Tab B opens the held message in Scheduled and presses `button` on its banner. */
    async function fromTabB(subject: string, button: string, shot?: string) {
      // The tab in front is the one Chromium draws: a screenshot of a tab behind shows its last frame.
      await b.bringToFront();
      await b.goto(`${url}/mail/folder/all/${scheduledFolder}/1`);
      await b.getByRole('grid', { name: 'Messages' }).getByText(subject).click();
      const banner = b.getByTestId('scheduled-banner');
      await banner.waitFor();
      if (shot) await screenshot(b, shot);
      await banner.getByRole('button', { name: button }).click();
    }

    // Sent in tab A, held 30 s: A shows Sending…; tab B cancels it from Scheduled, and A's box goes at once.
    await a.bringToFront();
    await a.goto(`${url}/mail`);
    const first = 'Two tabs — cancelled in B';
    let compose = await writeTo(a, 'New message', own, first, 'Cancelled from the other tab.');
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await notice(a, /Sending…\s*Goes in \d+ s/);
    await screenshot(a, 'undo-send-two-tabs-a-sending-desktop-en');
    await fromTabB(first, 'Cancel sending', 'undo-send-two-tabs-b-banner-desktop-en');
    const closedAt = Date.now();
    // No box left at all (a finished one would say Message sent.).
    await a.getByTestId('success-dialog').waitFor({ state: 'detached', timeout: 5_000 });
    console.log(`tab A's Sending… box closed ${Date.now() - closedAt} ms after tab B cancelled`);
    await a.bringToFront();
    await screenshot(a, 'undo-send-two-tabs-a-closed-desktop-en');
    expect(await subjectsIn(a, inbox)).not.toContain(first);
    await expect(
      api<{ scheduled: unknown[] }>(a, 'GET', 'scheduled-sends').then((r) => r.scheduled),
    ).resolves.toEqual([]);

    // Again, and B sends it now: A's countdown ends with "Message sent." and no Undo.
    const second = 'Two tabs — sent now from B';
    await a.bringToFront();
    compose = await writeTo(a, 'New message', own, second, 'Sent now from the other tab.');
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await notice(a, /Sending…/);
    await fromTabB(second, 'Send now');
    const sent = await notice(a, /Message sent\./);
    await a.bringToFront();
    expect(await sent.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    await screenshot(a, 'undo-send-two-tabs-a-sent-desktop-en');
    await arrival(a, inbox, second, 15_000);
    await context.close();
  }, 120_000);

  it('in Russian on a phone: the setting, the countdown, the Send later menu and the Scheduled banner', async () => {
    const lena = await newPage(browser, phone, 'ru-RU');
    const p = lena.page;
    await signUp(p, url, 'Лена Отменяет');
    const own = (await api<{ email: string }>(p, 'GET', 'user/account')).email;
    await setUndoSend(p, 'Отмена отправки', 20);
    await screenshot(p, 'undo-send-settings-mobile-ru');

    await p.goto(`${url}/mail`);
    let compose = await writeTo(p, 'Написать', own, 'Себе — отмена', 'Проверка отмены.');
    await compose.getByRole('button', { name: 'Отправить', exact: true }).click();
    const box = await notice(p, /Отправка…\s*Уйдёт через \d+ с/);
    await screenshot(p, 'undo-send-countdown-mobile-ru');
    await box.getByRole('button', { name: 'Отменить' }).click();
    compose = p.getByTestId('compose-window');
    await compose.waitFor();
    await compose.getByRole('button', { name: 'Позже: выбрать время' }).click();
    await p.getByRole('menuitem', { name: 'Завтра утром' }).waitFor();
    await screenshot(p, 'send-later-menu-mobile-ru');
    await p.getByRole('menuitem', { name: 'Завтра утром' }).click();
    await notice(p, /Запланировано на .*08:00/);

    const { scheduled } = await api<{ scheduled: { folder_id: number; uid: number }[] }>(
      p,
      'GET',
      'scheduled-sends',
    );
    await p.goto(`${url}/mail/folder/all/${scheduled[0]!.folder_id}/1`);
    await p.getByRole('grid').getByText('Себе — отмена').click();
    const banner = p.getByTestId('scheduled-banner');
    await expect(banner.textContent()).resolves.toMatch(/Будет отправлено .*08:00/);
    await screenshot(p, 'scheduled-banner-mobile-ru');
    // Cancel: the message goes back to Drafts, nothing waits any more.
    await banner.getByRole('button', { name: 'Отменить отправку' }).click();
    await notice(p, /Отправка отменена/);
    await expect(
      api<{ scheduled: unknown[] }>(p, 'GET', 'scheduled-sends').then((r) => r.scheduled),
    ).resolves.toEqual([]);
    await lena.context.close();
  }, 120_000);
});
