import { describe, it } from 'vitest';
import { launchBrowser, newPage, screenshot, sharedServer, signUp } from './_harness.js';

const { url } = sharedServer();
const browser = await launchBrowser();
const write = { 'x-mailroom-csrf': '1', origin: url };

describe('the filters screens in a mailbox opened by impersonation (issue 28 item 4)', () => {
  it('say up front that only the owner sets up forwarding, and a forward the grantee builds is refused in words', async () => {
    const owner = await newPage(browser);
    const ownerId = await signUp(owner.page, url, 'Fay Owner');
    const grantee = await newPage(browser);
    const granteeId = await signUp(grantee.page, url, 'Gus Grantee');
    const granted = await owner.page.request.post(
      `${url}/api/v1/user/settings/security/impersonation?member_id=${granteeId}`,
      { headers: write },
    );
    if (!granted.ok()) throw new Error(`grant: ${granted.status()}`);
    const switched = await grantee.page.request.post(`${url}/auth/impersonate`, {
      headers: write,
      data: { member_id: ownerId },
    });
    if (!switched.ok()) throw new Error(`impersonate: ${switched.status()}`);

    const page = grantee.page;
    await page.goto(`${url}/settings/filters/create`);
    await page
      .getByRole('note')
      .getByText(/only its owner can add or change forwarding/)
      .waitFor();
    await page.getByLabel('Filter name').fill('To me');
    await page.getByRole('button', { name: 'Remove condition 1' }).click();
    const action = page.getByRole('listitem', { name: 'Action 1' });
    await action.getByLabel('Action', { exact: true }).selectOption({ label: 'Forward' });
    await action.getByLabel('Forward to').fill(`${granteeId}@mailroom.test`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText('Only the mailbox owner can set up forwarding, auto-replies and mail collectors')
      .first()
      .waitFor();
    await screenshot(page, 'filters-grantee-refused-desktop-en');

    const views = [
      { name: 'desktop-en', viewport: { width: 1440, height: 900 }, lang: 'en' },
      { name: 'mobile-en', viewport: { width: 390, height: 844 }, lang: 'en' },
      { name: 'desktop-ru', viewport: { width: 1440, height: 900 }, lang: 'ru' },
      { name: 'mobile-ru', viewport: { width: 390, height: 844 }, lang: 'ru' },
    ];
    for (const view of views) {
      const other = await browser.newContext({
        viewport: view.viewport,
        storageState: await grantee.context.storageState(),
      });
      const otherPage = await other.newPage();
      await otherPage.goto(`${url}/settings/filters?lang=${view.lang}`);
      await otherPage
        .getByRole('note')
        .getByText(view.lang === 'ru' ? /добавлять или менять пересылку/ : /only its owner can add/)
        .waitFor();
      await screenshot(otherPage, `filters-grantee-${view.name}`);
      await other.close();
    }
    await owner.context.close();
    await grantee.context.close();
  });
});
