import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { startFullStack, type FullStack } from '../../../test/support/full-stack';
import { ADMIN_TOKEN, createTenant, randomPhone, type TenantFixture } from '../../../test/support/stack';
import { launchBrowser } from './support/browser';
import { controlsInMain, tabThroughMain, tabTo } from './support/keyboard';

const PASSWORD = 'a long enough dashboard password';
jest.setTimeout(90_000);

describe('the dashboard with the keyboard alone', () => {
  let env: FullStack;
  let t: TenantFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    env = await startFullStack({ SIGNIN_MAX_PER_IP: '1000' });
    t = await createTenant(env.stack);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const email = `keys-${t.tenantId}-${Date.now()}@example.com`;
    const invite = await request(env.gatewayUrl)
      .post(`/admin/v1/tenants/${t.tenantId}/users`)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .send({ email })
      .expect(201);
    await page.goto(invite.body.data.invite_url as string);
    await page.getByLabel('New password').focus();
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    // Setting the password signs in.
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  // Overview last: it is the screen signing in lands on, and opening the screen already shown is no navigation.
  it.each([
    ['Inbox', 'Inbox'],
    ['Numbers', 'Numbers'],
    ['Campaigns', 'Campaigns'],
    ['Templates', 'Templates'],
    ['Opt-outs', 'Opt-outs'],
    ['Flows', 'Flows'],
    ['Notifications', 'Notifications'],
    ['Webhooks', 'Webhooks'],
    ['Health monitor', 'Webhook health monitor'],
    ['Sent messages', 'Sent messages'],
    ['Send a message', 'Send a message'],
    ['API keys', 'API keys'],
    ['Team', 'Team'],
    ['Audit log', 'Audit log'],
    ['Overview', 'Overview'],
  ])(
    'when the %s screen is opened from the navigation with Tab and Enter, then Tab reaches every control on it',
    async (link, heading) => {
      await page.keyboard.press('Home');
      await page.locator('body').focus();
      await tabTo(page, (f) => f.tag === 'a' && f.name === link);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const expected = await controlsInMain(page);
      // A screen with nothing to operate yet (no flows, no notifications) has no stop inside <main>.
      if (expected.length === 0) return;
      const reached = await tabThroughMain(page);
      for (const name of expected) expect(reached).toContain(name);
    },
  );

  it('when a key is issued and a template message sent with the keyboard alone, then both are acknowledged', async () => {
    await page.locator('body').focus();
    await tabTo(page, (f) => f.tag === 'a' && f.name === 'API keys');
    await page.keyboard.press('Enter');
    await tabTo(page, (f) => f.tag === 'button' && /Issue/.test(f.name));
    await page.keyboard.press('Enter');
    await page.getByTestId('new-key').waitFor();
    expect(await page.getByTestId('new-key').textContent()).toMatch(/^bm_live_/);

    await page.locator('body').focus();
    await tabTo(page, (f) => f.tag === 'a' && f.name === 'Send a message');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Send a message', exact: true }).waitFor();
    await tabTo(page, (f) => f.tag === 'input' && /^To \(phone/.test(f.name));
    await page.keyboard.type(`+${randomPhone()}`);
    // The template radio is the default; the template list takes the first letters typed, as a select does.
    await tabTo(page, (f) => f.tag === 'select' && /^Template/.test(f.name));
    await page.keyboard.type('hello_world');
    await tabTo(page, (f) => f.tag === 'button' && f.name === 'Send');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Accepted: message #\d+/ }).waitFor();
  });
});
