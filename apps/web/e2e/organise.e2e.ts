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
});
