import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

/**
 * Makes the next messages/mark call fail with the server's 500 answer, held until `release()`: the state in between
 * is the optimistic one, which the test looks at. A failing server is the thing under test, so this is routed.
 */
async function failNextMark(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let seen!: (body: unknown) => void;
  const requested = new Promise<unknown>((resolve) => (seen = resolve));
  await page.route(
    '**/api/v1/messages/mark',
    async (route: Route) => {
      seen(route.request().postDataJSON());
      await released;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({
          error: { message: 'Internal error', meta: { code: 500, i8s: 'internal_error' } },
        }),
      });
    },
    { times: 1 },
  );
  return { requested, release };
}

/** The message's flags as the server has them. */
async function serverFlags(page: Page, folderId: number, uid: number) {
  const response = await page.request.get(`${url}/api/v1/messages/${folderId}/${uid}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { message: { flags: { flagged: boolean; seen: boolean } } }).message
    .flags;
}

describe('flag changes apply at once and roll back when the server refuses', () => {
  it('a failed flag call shows the flag at once, then takes it back and shows the error dialog', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Fay Flag');
    await transport.sendMail({
      from: '"Gus Grant" <gus@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: 'Flag me',
      text: 'Important, maybe.',
    });
    const grid = page.getByRole('grid', { name: 'Messages' });
    const row = grid.getByRole('row', { name: /Flag me/ });
    await row.waitFor({ timeout: 15_000 });
    const [folderId, uid] = (await row.getAttribute('data-message-key'))!.split(':').map(Number) as [
      number,
      number,
    ];
    const rowFlag = row.getByRole('button', { name: /^(Flag|Remove flag)$/ });
    await expect(rowFlag.getAttribute('aria-pressed')).resolves.toBe('false');

    // From the list: flagged on screen while the call is out, unflagged again after the 500.
    const first = await failNextMark(page);
    await rowFlag.click();
    await expect(first.requested).resolves.toEqual({
      flag: 'flagged',
      folder_messages: [{ folder_id: folderId, message_uids: [uid] }],
    });
    // The call is held until release(), so what shows now is the optimistic state. React may paint it just
    // after the request leaves (the cache changes first, the render follows), hence poll rather than read once.
    await expect.poll(() => rowFlag.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => row.getAttribute('aria-label')).toMatch(/, flagged/);
    first.release();
    const dialog = page.getByTestId('error-dialog');
    await dialog.waitFor();
    await screenshot(page, 'flag-rollback-error-desktop-en');
    const text = await dialog.textContent();
    expect(text).toContain('An error occured!');
    expect(text).toContain('Internal error');
    await expect.poll(() => rowFlag.getAttribute('aria-pressed')).toBe('false');
    await expect(row.getAttribute('aria-label')).resolves.not.toMatch(/flagged/);
    // The error dialog closes by itself after BANNER_MS (4 s).
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    await expect((await serverFlags(page, folderId, uid)).flagged).toBe(false);

    // With the server answering again the same click sticks.
    await rowFlag.click();
    await expect.poll(() => serverFlags(page, folderId, uid).then((f) => f.flagged)).toBe(true);
    await expect(rowFlag.getAttribute('aria-pressed')).resolves.toBe('true');

    // From the reader: removing the flag fails, so the flag comes back in the reader and in the list.
    await row.click();
    const reader = page.getByRole('region', { name: 'Message' });
    await reader.getByRole('heading', { name: 'Flag me' }).waitFor();
    const readerFlag = reader.getByRole('button', { name: /^(Flag|Remove flag)$/ });
    await expect.poll(() => readerFlag.getAttribute('aria-pressed')).toBe('true');
    // Opening marked it read (also a messages/mark call): wait for that before failing the next one.
    await expect.poll(() => serverFlags(page, folderId, uid).then((f) => f.seen)).toBe(true);
    const second = await failNextMark(page);
    await readerFlag.click();
    await expect(second.requested).resolves.toMatchObject({ flag: 'unflagged' });
    await expect.poll(() => readerFlag.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => rowFlag.getAttribute('aria-pressed')).toBe('false');
    second.release();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => readerFlag.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => rowFlag.getAttribute('aria-pressed')).toBe('true');
    await expect((await serverFlags(page, folderId, uid)).flagged).toBe(true);
    await context.close();
  });
});
