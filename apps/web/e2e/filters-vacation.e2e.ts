import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { launchBrowser, newPage, signUp, smtpTransport, startRelaySink, startServer } from './_harness.js';

const sink = await startRelaySink();
// A short outbox poll, so a second reply, were one sent, would reach the sink within the wait below.
// Every node of the cluster: the reply is sent once whichever node takes the mail and the outbox row.
const { url, smtpPort } = await startServer(
  {
    SMTP_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
    OUTBOX_POLL_MS: '200',
  },
  { nodes: 'all' },
);
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

describe('an auto-reply built in the filters screen', () => {
  it('answers two messages from one sender exactly once, through the relay', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Vera Away');
    const to = `${memberId}@mailroom.test`;

    await page.goto(`${url}/settings/filters/create`);
    await page.getByLabel('Filter name').fill('Away');
    // No condition: every message.
    await page.getByRole('button', { name: 'Remove condition 1' }).click();
    const action = page.getByRole('listitem', { name: 'Action 1' });
    await action.getByLabel('Action', { exact: true }).selectOption('reply');
    await action.getByLabel('Reply subject').fill('Out of office');
    await action.getByLabel('Reply text').fill('I am away until Monday.');
    await action.getByLabel('Once per sender every (days)').fill('7');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/settings\/filters$/);
    await page.getByRole('link', { name: 'Away' }).waitFor();

    for (const subject of ['Question', 'Another question'])
      await transport.sendMail({ from: 'Carl <carl@outside.example>', to, subject, text: 'Are you there?' });
    await expect.poll(() => sink.messages.length, { timeout: 15_000 }).toBe(1);
    // Both messages are in (the second one answered or not), and the outbox has had time for a second reply.
    await page.waitForTimeout(2_000);
    expect(sink.messages).toHaveLength(1);
    const reply = await simpleParser(sink.messages[0]!.raw);
    expect(sink.messages[0]!.to).toEqual(['carl@outside.example']);
    expect(reply.subject).toBe('Out of office');
    expect(reply.text?.trim()).toBe('I am away until Monday.');
    expect(reply.headers.get('auto-submitted')).toBe('auto-replied');
    await context.close();
  });
});
