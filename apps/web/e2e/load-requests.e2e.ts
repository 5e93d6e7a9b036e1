import { describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { launchBrowser, newPage, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

describe('opening the mail', () => {
  it('asks the server for each thing once: the first screen comes with the page, the websocket catches up', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Una Once');
    await transport.sendMail({
      from: '"Ola" <ola@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: 'Already here',
      text: 'Read me once.',
    });
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Already here/ }).waitFor({ timeout: 15_000 });
    // Its events are older than the reload's data (by more than the margin for several servers' clocks).
    await page.waitForTimeout(500);

    const asked: string[] = [];
    const record = (request: Request) => {
      const { pathname, search } = new URL(request.url());
      if (/^\/(api|auth)\//.test(pathname)) asked.push(`${request.method()} ${pathname}${search}`);
    };
    page.on('request', record);
    const socket = page.waitForEvent('websocket');
    await page.reload();
    const ws = await socket;
    expect(ws.url()).toMatch(/\/ws\?since=\d+$/);
    const synced = ws.waitForEvent('framereceived', {
      predicate: (frame) => typeof frame.payload === 'string' && frame.payload.includes('"sync"'),
    });
    await grid.getByRole('row', { name: /Already here/ }).waitFor();
    expect(String((await synced).payload)).toContain('"caught_up"');
    await page.waitForTimeout(1_500);
    page.off('request', record);
    const twice = asked.filter((request, i) => asked.indexOf(request) !== i);
    expect(twice, asked.join('\n')).toEqual([]);
    // The first screen came with index.html (issue 32): the user, the account, the folders and labels, the first page.
    expect(
      asked.filter((r) => r.startsWith('GET /api/v1/messages/folder/')),
      asked.join('\n'),
    ).toEqual([]);
    expect(
      asked.filter((r) => /^GET \/(auth\/(access|rids)|api\/v1\/(user\/account|folders|labels))$/.test(r)),
    ).toEqual([]);

    // Mail that arrives now comes over the socket.
    await transport.sendMail({
      from: '"Ola" <ola@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: 'Arrived after load',
      text: 'Live.',
    });
    await grid.getByRole('row', { name: /Arrived after load/ }).waitFor({ timeout: 15_000 });
    await context.close();
  });
});
