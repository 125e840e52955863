import { mkdirSync } from 'node:fs';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { uniqueSuffix } from '@bm/platform/testing';
import { startFullStack, type FullStack } from '../../../test/support/full-stack';
import { createTenant, type TenantFixture } from '../../../test/support/stack';
import { launchBrowser } from './support/browser';
import { SHOTS, shot, unlabelled } from './support/screens';
import { signedInPage } from './support/session';

jest.setTimeout(90_000);

describe('the template builder and the flow editor in headless Chromium against the real stack', () => {
  let env: FullStack;
  let t: TenantFixture;
  let browser: Browser;
  let page: Page;
  let base: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    env = await startFullStack({ SIGNIN_MAX_PER_IP: '1000' });
    base = `${env.gatewayUrl}/dashboard`;
    t = await createTenant(env.stack);
    browser = await launchBrowser();
    page = await signedInPage(browser, env.gatewayUrl, t.tenantId);
    page.setDefaultTimeout(10_000);
    // A CSP violation or a script error shows on the console; none is allowed (a refused POST logs its 422).
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('422')) consoleErrors.push(m.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });
  afterEach(() => expect(consoleErrors).toEqual([]));

  const builder = () => page.getByRole('form', { name: 'Build a template' });

  it('when a template is built with a header, samples, a footer and buttons, then field errors show as it is typed, the API refusal shows on its field, and the submitted template is listed and its rejection reason shown', async () => {
    await page.goto(`${base}/templates`);
    await page.getByRole('row').filter({ hasText: 'hello_world' }).first().waitFor();
    const form = builder();
    const submit = form.getByRole('button', { name: 'Submit for review' });
    const body = form.getByRole('textbox', { name: 'Body', exact: true });

    await form.getByLabel('Template name').fill('hello_world');
    await form.getByLabel('Category').selectOption('MARKETING');
    await form.getByLabel('Header type').selectOption('TEXT');
    await form.getByLabel('Header text').fill('Order {{1}}');
    await form.getByLabel('Header sample for {{1}}').fill('#123');
    await body.fill('{{1}}, your order is ready');
    await form.getByText('the body may not start or end with a variable').waitFor();
    expect(await body.getAttribute('aria-invalid')).toBe('true');
    expect(await submit.isDisabled()).toBe(true);

    await body.fill('Hi {{1}}, your order {{2}} is ready.');
    await form.getByText('give a sample for each of the 2 variables').waitFor();
    await form.getByLabel('Body sample for {{1}}').fill('Ana');
    await form.getByLabel('Body sample for {{2}}').fill('#123');
    await form.getByLabel('Footer (optional)').fill('Thanks for shopping with us');
    await form.getByRole('button', { name: 'Add a button' }).click();
    await form.getByLabel('Button 1 text').fill('Stop promos');
    await form.getByRole('button', { name: 'Add a button' }).click();
    await form.getByLabel('Button 2 type').selectOption('URL');
    await form.getByLabel('Button 2 text').fill('Track order');
    await form.getByLabel('Button 2 URL').fill('https://shop.example/track/{{1}}');
    await form.getByText('give a sample URL for the variable').waitFor();
    await form.getByLabel('Button 2 sample URL').fill('https://shop.example/track/123');
    const preview = form.getByRole('region', { name: 'Preview' });
    await preview.getByText('Hi Ana, your order #123 is ready.').waitFor();
    expect(await preview.getByRole('listitem').allTextContents()).toEqual(['Stop promos', 'Track order']);
    expect(await unlabelled(page)).toEqual([]);
    await shot(page, 'template-builder');

    // The name is taken on the number: the API's 422 names the field, and the builder shows it there.
    await submit.click();
    await form.getByText('a template named hello_world already exists in en_US').waitFor();
    expect(await form.getByLabel('Template name').getAttribute('aria-invalid')).toBe('true');

    const name = `order_ready_${uniqueSuffix()}`;
    await form.getByLabel('Template name').fill(name);
    await submit.click();
    await form
      .getByRole('status')
      .filter({ hasText: `Submitted ${name} for review: PENDING` })
      .waitFor();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('PENDING').waitFor();

    await request(env.stack.sandboxUrl)
      .patch(`/_sandbox/templates/${t.wabaId}/${name}/en_US`)
      .send({ status: 'REJECTED', reason: 'INVALID_FORMAT' })
      .expect(200);
    await waitForRow(page, name, 'Invalid format (INVALID_FORMAT)');
    expect(await row.getByText('REJECTED').count()).toBe(1);
    await shot(page, 'templates-rejected');
  });
});

/** Reloads the template list until the row shows the text (the review arrives by the upstream's webhook). */
async function waitForRow(page: Page, name: string, text: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    if ((await row.textContent())?.includes(text)) return;
    if (Date.now() > deadline) throw new Error(`the row of ${name} never showed ${text}`);
    await page.waitForTimeout(250);
  }
}
