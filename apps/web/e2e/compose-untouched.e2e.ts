import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

interface Folder {
  id: number;
  system: string | null;
}

/** The subjects in the Drafts folder, read from the API. */
async function drafts(page: Page): Promise<string[]> {
  const { folders } = (await (await page.request.get(`${url}/api/v1/folders`)).json()) as {
    folders: Folder[];
  };
  const id = folders.find((folder) => folder.system === 'draft')!.id;
  const list = (await (await page.request.get(`${url}/api/v1/messages/folder/${id}`)).json()) as {
    messages: { subject: string }[];
  };
  return list.messages.map((message) => message.subject);
}

describe('a compose window left as it opened', () => {
  it('is discarded on close after Reply and Reply all, and its autosaved draft goes too; a changed one is kept', async () => {
    const { context, page } = await newPage(browser);
    // The autosave's 30 s pass on the page's clock, not the test's.
    await page.clock.install();
    const memberId = await signUp(page, url, 'Ann Lee');
    await transport.sendMail({
      from: '"Olga Berg" <olga@example.org>',
      to: `${memberId}@mailroom.test`,
      cc: 'Carol <carol@example.org>',
      subject: 'Lunch on Friday',
      text: 'Are you in?',
    });
    await page
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: /Lunch on Friday/ })
      .click();
    const reader = page.getByRole('region', { name: 'Message' });
    await reader.getByRole('heading', { name: 'Lunch on Friday' }).waitFor();
    const compose = page.getByTestId('compose-window');
    const editor = compose.getByRole('textbox', { name: 'Message text' });
    const typeAtTop = async (text: string) => {
      await expect.poll(() => editor.locator('blockquote').count(), { timeout: 10_000 }).toBe(1);
      // The cursor starts above the quote once the editor has the focus.
      await expect
        .poll(() => editor.evaluate((element) => element.contains(document.activeElement)), {
          timeout: 10_000,
        })
        .toBe(true);
      await page.keyboard.type(text);
    };
    const close = () => compose.getByRole('button', { name: /^Close/ }).click();

    for (const mode of ['Reply', 'Reply all']) {
      await reader.getByRole('button', { name: mode, exact: true }).click();
      await expect.poll(() => editor.locator('blockquote').count(), { timeout: 10_000 }).toBe(1);
      // Clicking into the text and out again changes nothing.
      await editor.click();
      await compose.getByLabel('Subject').click();
      await close();
      await compose.waitFor({ state: 'detached' });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await drafts(page)).toEqual([]);

    // Typed, autosaved, then taken back: the window is as it opened again, so closing removes the draft.
    await reader.getByRole('button', { name: 'Reply', exact: true }).click();
    await typeAtTop('Yes');
    await page.clock.fastForward(31_000);
    await expect.poll(() => drafts(page), { timeout: 10_000 }).toEqual(['Re: Lunch on Friday']);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    await close();
    await compose.waitFor({ state: 'detached' });
    await expect.poll(() => drafts(page), { timeout: 10_000 }).toEqual([]);

    // A reply with a word in it is kept as a draft.
    await reader.getByRole('button', { name: 'Reply', exact: true }).click();
    await typeAtTop('Maybe');
    await close();
    await compose.waitFor({ state: 'detached' });
    await expect.poll(() => drafts(page), { timeout: 10_000 }).toEqual(['Re: Lunch on Friday']);
    await context.close();
  });
});
