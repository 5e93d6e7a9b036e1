import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { launchBrowser, newPage, screenshot, sharedServer, signUp } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();

describe('organising mail in the browser', () => {
  it('a label is created, put on a message from the toolbar, and a reply shows as a chain', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Ann Lee');
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    const to = `${memberId}@mailroom.test`;
    await transport.sendMail({
      from: '"Bob Sender" <bob@example.org>',
      to,
      subject: 'Quarterly report',
      text: 'Numbers attached.',
      messageId: '<report-1@example.org>',
    });
    await transport.sendMail({
      from: '"Bob Sender" <bob@example.org>',
      to,
      subject: 'Re: Quarterly report',
      text: 'One more thing.',
      inReplyTo: '<report-1@example.org>',
      references: '<report-1@example.org>',
    });
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Re: Quarterly report/ }).waitFor({ timeout: 15_000 });

    // Create a label from the sidebar.
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByLabel('Label name').fill('Reports');
    await page.getByLabel('Messages containing').fill('nothing-matches-this');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Reports').first().waitFor();

    // Put it on the first message through the toolbar.
    const original = grid.getByRole('row', { name: /Bob Sender, Quarterly report/ });
    await original.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Add label' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Reports' }).click();
    await expect
      .poll(async () => {
        const response = await page.request.get(`${url}/api/v1/labels`);
        const labelId = (await response.json()).labels[0].id;
        const list = await page.request.get(`${url}/api/v1/messages/label/${labelId}`);
        return (await list.json()).messages.map((m: { subject: string }) => m.subject);
      })
      .toEqual(['Quarterly report']);
    await screenshot(page, 'labels-desktop-en');

    // Turn chains on: the reply and the original become one row with a chain badge.
    const settings = await page.request.post(`${url}/api/v1/user/settings`, {
      headers: { 'x-mailroom-csrf': '1', origin: url },
      data: { message_thread: true },
    });
    expect(settings.ok()).toBe(true);
    await page.reload();
    await grid.getByRole('row').first().waitFor();
    await expect.poll(() => grid.getByRole('row').count()).toBe(1);
    await page.getByRole('button', { name: /Open the chain/ }).click();
    await page
      .getByText(/Quarterly report/)
      .nth(1)
      .waitFor();
    await screenshot(page, 'chain-desktop-en');
    await context.close();
  });

  it('folders and labels are renamed, recoloured and deleted from the sidebar; a label name is taken only once', async () => {
    const { context, page } = await newPage(browser);
    await signUp(page, url, 'Olga Sort');
    const folders = page.getByRole('tree', { name: 'Folders' });
    const labels = page.getByRole('list', { name: 'Labels' });
    const success = page.getByTestId('success-dialog');
    const closeSuccess = () => success.getByRole('button', { name: 'Close' }).click();
    const labelsFromApi = async () =>
      (
        (await (await page.request.get(`${url}/api/v1/labels`)).json()) as {
          labels: { name: string; color: string }[];
        }
      ).labels;

    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByLabel('Folder name').fill('Projects');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await closeSuccess();
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByLabel('Label name').fill('Reports');
    await page.getByLabel('Messages containing').fill('report');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await closeSuccess();

    // The same name again, in another case: refused with label_already_exist.
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByLabel('Label name').fill('reports');
    await page.getByLabel('Messages containing').fill('other');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('error-dialog').getByText('A label with this name already exists').waitFor();
    await page.getByTestId('error-dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await labelsFromApi()).map((label) => label.name)).toEqual(['Reports']);

    // Rename the folder from its menu; a system folder's menu only exports.
    await page.getByRole('button', { name: 'Actions for folder Inbox' }).click();
    await page.getByRole('menuitem', { name: 'Export as mbox' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Rename' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await folders.getByRole('treeitem', { name: 'Projects' }).click();
    await page.getByRole('button', { name: 'Actions for folder Projects' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).waitFor();
    await page.waitForTimeout(300); // the menu's fade-in
    await screenshot(page, 'sidebar-folder-menu-desktop-en');
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename folder' });
    await rename.getByLabel('Folder name').fill('Clients');
    await rename.getByRole('button', { name: 'Save' }).click();
    await success.getByText('Folder renamed').waitFor();
    await closeSuccess();
    await folders.getByRole('treeitem', { name: 'Clients' }).waitFor();

    // The label: recoloured and renamed.
    await page.getByRole('button', { name: 'Actions for label Reports' }).click();
    await page.getByRole('menuitem', { name: 'Change colour' }).click();
    const colour = page.getByRole('dialog', { name: 'Colour of “Reports”' });
    await colour.getByRole('radio', { name: 'Green' }).check();
    await page.waitForTimeout(300);
    await screenshot(page, 'sidebar-label-colour-desktop-en');
    await colour.getByRole('button', { name: 'Save' }).click();
    await closeSuccess();
    await expect.poll(async () => (await labelsFromApi())[0]?.color).toBe('#2f9e44');
    await page.getByRole('button', { name: 'Actions for label Reports' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByRole('dialog', { name: 'Rename label' }).getByLabel('Label name').fill('Finance');
    await page.getByRole('dialog', { name: 'Rename label' }).getByRole('button', { name: 'Save' }).click();
    await closeSuccess();
    await labels.getByRole('link', { name: 'Finance' }).waitFor();

    // On a phone and in Russian the menus are there too.
    const views = [
      { name: 'mobile-ru', viewport: { width: 390, height: 844 }, lang: 'ru' },
      { name: 'desktop-ru', viewport: { width: 1440, height: 900 }, lang: 'ru' },
      { name: 'mobile-en', viewport: { width: 390, height: 844 }, lang: 'en' },
    ];
    for (const view of views) {
      const ru = view.lang === 'ru';
      const other = await browser.newContext({
        viewport: view.viewport,
        storageState: await context.storageState(),
      });
      const otherPage = await other.newPage();
      await otherPage.goto(`${url}/mail?lang=${view.lang}`);
      if (view.viewport.width < 768)
        await otherPage.getByRole('button', { name: ru ? 'Открыть меню' : 'Open menu' }).click();
      const labelMenu = otherPage.getByRole('button', {
        name: ru ? 'Действия с меткой Finance' : 'Actions for label Finance',
      });
      await labelMenu.waitFor();
      await otherPage
        .getByRole('button', { name: ru ? 'Действия с папкой Clients' : 'Actions for folder Clients' })
        .click();
      await otherPage.getByRole('menuitem', { name: ru ? 'Переименовать' : 'Rename' }).waitFor();
      await otherPage.waitForTimeout(300);
      await screenshot(otherPage, `sidebar-folder-menu-${view.name}`);
      await otherPage.keyboard.press('Escape');
      await labelMenu.click();
      await otherPage.getByRole('menuitem', { name: ru ? 'Удалить' : 'Delete' }).click();
      await otherPage
        .getByRole('alertdialog', { name: ru ? 'Удалить метку «Finance»?' : 'Delete the label “Finance”?' })
        .waitFor();
      await otherPage.waitForTimeout(300);
      await screenshot(otherPage, `sidebar-label-delete-${view.name}`);
      await otherPage.getByRole('button', { name: ru ? 'Отмена' : 'Cancel' }).click();
      await other.close();
    }

    // Delete both after a confirmation; the folder on screen gives way to the Inbox.
    await page.getByRole('button', { name: 'Actions for label Finance' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirmLabel = page.getByRole('alertdialog', { name: 'Delete the label “Finance”?' });
    await confirmLabel.getByRole('button', { name: 'Delete' }).click();
    await closeSuccess();
    await expect.poll(() => labelsFromApi()).toEqual([]);
    await folders.getByRole('treeitem', { name: 'Clients' }).click();
    await page.getByRole('button', { name: 'Actions for folder Clients' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirmFolder = page.getByRole('alertdialog', { name: 'Delete the folder “Clients”?' });
    await confirmFolder.getByText('deleted for good').waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'sidebar-folder-delete-desktop-en');
    await confirmFolder.getByRole('button', { name: 'Delete' }).click();
    await closeSuccess();
    await folders.getByRole('treeitem', { name: 'Clients' }).waitFor({ state: 'detached' });
    await expect
      .poll(() => folders.getByRole('treeitem', { name: /^Inbox/ }).getAttribute('aria-current'))
      .toBe('page');
    await context.close();
  });
});
