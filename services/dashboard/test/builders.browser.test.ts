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

  it('when a flow is built with a keyword, a message with reply buttons, a hand-off and an end, then a graph error shows as it is typed, the preview plays it, and the saved flow is listed', async () => {
    await page.goto(`${base}/flows`);
    await page.getByRole('link', { name: 'New flow' }).click();
    const form = page.getByRole('form', { name: 'New flow' });
    const save = form.getByRole('button', { name: 'Save the flow' });
    await form.getByLabel('Flow name').fill('Order help');
    await form.getByLabel('Trigger keywords').fill('order, help');
    await form
      .getByRole('textbox', { name: 'Step 1 message', exact: true })
      .fill('Do you need help with an order?');
    await form.getByRole('button', { name: 'Add a reply button to step 1' }).click();
    await form.getByLabel('Step 1 button 1 title').fill('Talk to a person');
    await form.getByRole('button', { name: 'Add a step' }).click();
    await form.getByLabel('Step 2 name').fill('human');
    await form.getByLabel('Step 2 does').selectOption('handoff');
    await form.getByLabel('Step 1 button 1 leads to').selectOption('human');
    await form.getByRole('button', { name: 'Add a step' }).click();
    await form.getByLabel('Step 3 name').fill('done');
    await form.getByLabel('Step 3 does').selectOption('end');
    // The end is reachable from no button yet: the API's graph rule, checked as the user types.
    await form.getByText('step done cannot be reached from the first step').waitFor();
    expect(await save.isDisabled()).toBe(true);

    await form.getByRole('button', { name: 'Add a reply button to step 1' }).click();
    await form.getByLabel('Step 1 button 2 title').fill('No thanks');
    await form.getByLabel('Step 1 button 2 leads to').selectOption('done');
    await form.getByText('step done cannot be reached from the first step').waitFor({ state: 'detached' });

    const preview = form.getByRole('region', { name: 'Conversation preview' });
    await preview.getByText('Do you need help with an order?').waitFor();
    await preview
      .getByRole('group', { name: 'Reply as the customer' })
      .getByRole('button', { name: 'Talk to a person' })
      .click();
    await preview.getByText('Handed off to a person').waitFor();
    await preview.getByRole('button', { name: 'Restart the preview' }).click();
    await preview.getByRole('button', { name: 'No thanks' }).click();
    await preview.getByText('The flow ended.').waitFor();
    expect(await unlabelled(page)).toEqual([]);
    await shot(page, 'flow-editor');

    await save.click();
    await page.getByRole('heading', { name: 'Flows', exact: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Order help' });
    await row.getByText('Keyword: order, help').waitFor();
    await row.getByRole('link', { name: 'Order help' }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit flow Order help' });
    expect(await edit.getByLabel('Step 2 name').inputValue()).toBe('human');
    expect(await edit.getByLabel('Step 1 button 2 leads to').inputValue()).toBe('done');
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
