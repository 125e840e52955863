import { mkdirSync, readFileSync } from 'node:fs';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { loadIngressConfig } from '../../webhook-ingress/src/config';
import {
  contact,
  entry,
  envelope,
  messagesChange,
  sign,
  wamid,
} from '../../webhook-ingress/test/factories/webhooks';
import { csvObjects } from '../../../test/support/csv';
import { startFullStack, type FullStack } from '../../../test/support/full-stack';
import { createTenant, randomPhone, type TenantFixture } from '../../../test/support/stack';
import { launchBrowser } from './support/browser';
import { expectNoSidewaysOverflow, SHOTS, shot, unlabelled } from './support/screens';
import { signedInPage } from './support/session';

jest.setTimeout(180_000);

/** Distinct random phones. */
function phones(count: number): string[] {
  const set = new Set<string>();
  while (set.size < count) set.add(randomPhone());
  return [...set];
}

describe('the dashboard part 2 (campaigns, opt-outs, flows, notifications, overview) in headless Chromium', () => {
  let env: FullStack;
  let big: TenantFixture;
  let small: TenantFixture;
  let browser: Browser;
  let page: Page;
  let base: string;
  let campaignPage = '';
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    env = await startFullStack({ SIGNIN_MAX_PER_IP: '1000' });
    base = `${env.gatewayUrl}/dashboard`;
    big = await createTenant(env.stack, 'TIER_10K');
    small = await createTenant(env.stack, 'TIER_50');
    browser = await launchBrowser();
    page = await signedInPage(browser, env.gatewayUrl, big.tenantId);
    // A script error or a crashed screen shows on the console; none is allowed (answered 4xx calls are).
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) consoleErrors.push(m.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  /** Names the campaign, picks order_update, loads the rows, and maps {{1}} to name and {{2}} to order. */
  async function fillOrderUpdate(p: Page, name: string, load: string | Buffer) {
    await p.goto(`${base}/campaigns/new`);
    await p.getByLabel('Campaign name').fill(name);
    await p
      .getByRole('combobox', { name: 'Template', exact: true })
      .selectOption({ label: 'order_update (en_US)' });
    if (typeof load === 'string') await p.getByLabel('Or paste rows').fill(load);
    else {
      // The file input takes the CSV as a file the user picked.
      await p
        .getByLabel(/CSV file/)
        .setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: load });
    }
    await p.getByLabel('Value of {{1}} from').selectOption({ label: 'Column name' });
    await p.getByLabel('Value of {{2}} from').selectOption({ label: 'Column order' });
  }

  it('when a 1,000-row CSV with 3 bad rows and an opted-out phone is uploaded, then the bad rows are shown and left out, the forecast matches the campaign, and its page shows 996 sent', async () => {
    const list = phones(997);
    await request(env.gatewayUrl).post('/api/v1/opt-outs').set(big.auth).send({ phone: list[5] }).expect(201);
    const lines = list.map((phone, i) => `+${phone},Customer ${i},ORD-${i}`);
    lines.splice(10, 0, '12345,Too Short,ORD-X');
    lines.splice(20, 0, ',No Phone,ORD-Y');
    lines.splice(30, 0, `+${randomPhone()},No Order,`);
    const csv = ['phone,name,order', ...lines].join('\n');
    expect(lines).toHaveLength(1000);

    await page.getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await fillOrderUpdate(page, 'Autumn launch', Buffer.from(csv));
    await page.getByTestId('rows-summary').filter({ hasText: '997 rows ready, 3 left out' }).waitFor();
    const leftOut = page.getByRole('table', { name: 'Rows left out' });
    expect(await leftOut.getByRole('row').count()).toBe(4);
    expect(await leftOut.textContent()).toContain('"12345" is not a phone number with a country code');
    expect(await leftOut.textContent()).toContain('no phone');
    expect(await leftOut.textContent()).toContain('no value for {{2}} (column order)');
    expect(await page.getByRole('list', { name: 'Preview of the first messages' }).textContent()).toContain(
      'Hi Customer 0, order ORD-0',
    );
    expect(await unlabelled(page)).toEqual([]);

    await page.getByRole('button', { name: 'Forecast' }).click();
    await page.getByTestId('forecast').waitFor();
    expect(await page.getByTestId('forecast-recipients').textContent()).toBe('997');
    expect(await page.getByTestId('forecast-opted-out').textContent()).toBe('1');
    // order_update is MARKETING and the phones +1 415…: the example card's market 1 price, for the 996 sent.
    expect(await page.getByTestId('forecast-cost').textContent()).toBe('24.9 USD');
    await shot(page, 'campaign-new');

    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { name: 'Campaign Autumn launch' }).waitFor();
    campaignPage = page.url();
    await page
      .getByTestId('campaign-progress')
      .filter({ hasText: '996 sent · 0 failed · 996 total' })
      .waitFor({ timeout: 120_000 });
    await page.getByTestId('campaign-status').filter({ hasText: 'completed' }).waitFor();
    const created = (
      await request(env.gatewayUrl)
        .get(`/api/v1/campaigns/${campaignPage.split('/').pop()}`)
        .set(big.auth)
    ).body.data as { requested_count: number; total_count: number };
    expect(created).toMatchObject({ requested_count: 997, total_count: 996 });
    // The estimate and the cost so far, each found by its name; the cost grows as the upstream's status reports
    // price the messages (the page stops polling once the campaign is completed: reload it).
    const fact = (name: string) => page.getByRole('group', { name, exact: true }).getByRole('definition');
    expect(await fact('Estimated cost').textContent()).toBe('24.9 USD');
    await waitFor(
      async () =>
        (
          await request(env.gatewayUrl)
            .get(`/api/v1/campaigns/${campaignPage.split('/').pop()}`)
            .set(big.auth)
        ).body.data.cost_amount === 24.9 || undefined,
      { timeoutMs: 60_000, what: "the campaign's messages priced" },
    );
    await page.reload();
    await fact('Cost so far').filter({ hasText: '24.9 USD' }).waitFor();
    expect(await page.getByRole('button', { name: /^Retry failed/ }).isDisabled()).toBe(true);
    expect(await page.getByText('No recipient failed: there is nothing to retry.').count()).toBe(1);
    await page.getByLabel('Recipient status').selectOption('failed');
    await page.getByText('No recipients match.').waitFor();
    await shot(page, 'campaign');

    await page.getByRole('link', { name: 'Campaigns' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Autumn launch' });
    expect(await row.textContent()).toContain('996 sent');
    await shot(page, 'campaigns');
  });

  it("when a campaign exceeds the number's capacity with split across days, then the forecast and the created campaign show its parts and dates, and a scheduled part can be cancelled", async () => {
    const p = await signedInPage(browser, env.gatewayUrl, small.tenantId);
    const csv = ['phone,name,order', ...phones(60).map((phone, i) => `+${phone},C${i},O${i}`)].join('\n');
    await fillOrderUpdate(p, 'Big list', csv);
    await p.getByTestId('rows-summary').filter({ hasText: '60 rows ready, 0 left out' }).waitFor();
    await p.getByRole('button', { name: 'Forecast' }).click();
    await p.getByRole('alert').filter({ hasText: 'MESSAGING_TIER_LIMIT_EXCEEDED' }).waitFor();
    await p.getByLabel(/Split across days/).check();
    await p.getByRole('button', { name: 'Forecast' }).click();
    const planned = p.getByRole('table', { name: 'Planned parts' });
    await planned.waitFor();
    const plannedRows = planned.getByRole('row');
    expect(await plannedRows.count()).toBe(3);
    expect(await plannedRows.nth(1).textContent()).toMatch(/^150now$/);
    expect(await plannedRows.nth(2).textContent()).toMatch(/^210\w{3} \d/);
    await shot(p, 'campaign-forecast-split');

    await p.getByRole('button', { name: 'Create campaign' }).click();
    await p.getByRole('heading', { name: 'Campaign Big list' }).waitFor();
    const parts = p.getByRole('table', { name: 'Parts' });
    const second = parts.getByRole('row').filter({ hasText: 'Part 2' });
    await second.filter({ hasText: 'scheduled' }).waitFor({ timeout: 30_000 });
    expect(await second.textContent()).toMatch(/\w{3} \d+, \d{4}/);
    await second.getByRole('button', { name: /^Cancel .* part 2$/ }).click();
    await second.filter({ hasText: 'cancelled' }).waitFor();
    expect(await second.getByRole('button', { name: /^Cancel .* part 2$/ }).isDisabled()).toBe(true);
    await shot(p, 'campaign-parts');
    await p.context().close();
  });

  it('when Cancel campaign is confirmed on a campaign held mid-send, then it ends cancelled and Export CSV downloads every recipient', async () => {
    const team = await createTenant(env.stack, 'TIER_10K');
    const p = await signedInPage(browser, env.gatewayUrl, team.tenantId);
    const created = await request(env.gatewayUrl)
      .post('/api/v1/campaigns')
      .set(team.auth)
      .send({
        channel_account_id: team.channelAccountId,
        message_type: 'template',
        template_name: 'hello_world',
        campaign_name: 'Held launch',
        recipients: phones(300).map((phone) => ({ phone })),
      })
      .expect(202);
    const id = created.body.data.campaign_id as string;
    // Held as soon as it sends (pause, as the console offers), so the test meets it mid-send on any machine.
    await waitFor(
      async () =>
        (await request(env.gatewayUrl).post(`/api/v1/campaigns/${id}/pause`).set(team.auth)).status === 200,
      { what: 'the campaign paused mid-send', timeoutMs: 30_000, intervalMs: 20 },
    );
    await p.goto(`${base}/campaigns/${id}`);
    await p.getByTestId('campaign-status').filter({ hasText: 'paused' }).waitFor();
    const dialogs: string[] = [];
    p.once('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });

    await p.getByRole('button', { name: /^Cancel campaign Held launch/ }).click();

    await p.getByTestId('campaign-status').filter({ hasText: 'cancelled' }).waitFor();
    expect(dialogs).toEqual([expect.stringMatching(/^Cancel campaign Held launch while it is sending\?/)]);
    expect(await p.getByRole('button', { name: /^Cancel campaign Held launch/ }).isDisabled()).toBe(true);
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const rows = csvObjects(readFileSync(await download.path(), 'utf8'));
    expect(rows).toHaveLength(300);
    expect(new Set(rows.map((r) => r.phone)).size).toBe(300);
    // One dispatch step hands a list this short to messaging at once: what is left unsent is the component test's
    // (services/campaign/test/controls.test.ts); here a failure can only be the stop's.
    for (const r of rows.filter((x) => x.status === 'failed')) expect(r.error).toMatch(/^CAMPAIGN_STOPPED/);
    await shot(p, 'campaign-cancelled');
    await p.context().close();
  });

  it('when an opt-out is added on the Opt-outs screen and a campaign includes that phone, then the campaign skips it', async () => {
    const [kept, other, optedOut] = phones(3);
    await page.getByRole('link', { name: 'Opt-outs' }).click();
    await page.getByLabel('Phone to opt out').fill(`+${optedOut}`);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Opted out: +${optedOut}` })
      .waitFor();
    await page.getByLabel('Search by phone (leading digits)').fill(optedOut.slice(0, 10));
    const found = page.getByRole('row').filter({ hasText: `+${optedOut}` });
    await found.waitFor();
    expect(await found.textContent()).toContain('API or dashboard');
    expect(await unlabelled(page)).toEqual([]);
    await shot(page, 'opt-outs');

    const csv = ['phone,name,order', `+${kept},Kept,A1`, `+${other},Other,A2`, `+${optedOut},Gone,A3`].join(
      '\n',
    );
    await fillOrderUpdate(page, 'Opt-out check', csv);
    await page.getByRole('button', { name: 'Forecast' }).click();
    await page.getByTestId('forecast-opted-out').filter({ hasText: '1' }).waitFor();
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { name: 'Campaign Opt-out check' }).waitFor();
    await page
      .getByTestId('campaign-progress')
      .filter({ hasText: '2 sent · 0 failed · 2 total' })
      .waitFor({ timeout: 30_000 });
    const recipients = page.getByRole('table', { name: 'Recipients' });
    await recipients.getByRole('row').nth(2).waitFor();
    expect(await recipients.textContent()).not.toContain(optedOut);
  });

  it('when a flow is activated and a customer sends its keyword to the ingress, then the flow page shows the session and Notifications the live-chat request with an unread count', async () => {
    const keyword = `agent${uniqueSuffix()}`;
    const flow = await request(env.gatewayUrl)
      .post('/api/v1/flows')
      .set(big.auth)
      .send({
        channel_account_id: big.channelAccountId,
        name: `Talk to us ${keyword}`,
        trigger: { type: 'keyword', keywords: [keyword] },
        steps: [
          { id: 'hello', type: 'send_text', text: 'A person will answer you shortly.', next: 'human' },
          { id: 'human', type: 'handoff' },
        ],
      })
      .expect(201);
    const flowId = flow.body.data.flow_id as string;
    await page.getByRole('link', { name: 'Flows' }).click();
    const row = page.getByRole('row').filter({ hasText: `Talk to us ${keyword}` });
    await row.getByRole('button', { name: `Activate Talk to us ${keyword}` }).click();
    await row
      .filter({ hasText: 'active' })
      .getByRole('button', { name: /^Deactivate/ })
      .waitFor();
    await row.getByRole('link').click();
    await page.getByRole('list', { name: 'Flow steps' }).waitFor();
    expect(await page.getByRole('list', { name: 'Flow steps' }).textContent()).toContain(
      'Hand off to a person',
    );

    const customer = randomPhone();
    const body = JSON.stringify(
      envelope(
        entry(
          big.wabaId,
          messagesChange(big.phoneNumberId, {
            contacts: [contact(customer, 'Dana')],
            messages: [
              {
                from: customer,
                id: wamid(),
                timestamp: String(Math.floor(Date.now() / 1000)),
                type: 'text',
                text: { body: keyword },
              },
            ],
          }),
        ),
      ),
    );
    await request(env.ingress.url)
      .post('/api/webhooks/channel')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', sign(body, loadIngressConfig(testEnv()).INGRESS_APP_SECRET))
      .send(body)
      .expect(200);
    const session = page
      .getByRole('table', { name: 'Sessions' })
      .getByRole('row')
      .filter({ hasText: customer });
    await session.filter({ hasText: 'handed_off' }).waitFor({ timeout: 30_000 });
    await shot(page, 'flow');
    expect(flowId).toMatch(/^[0-9A-Z]{26}$/);

    await page.getByTestId('unread-count').filter({ hasText: '1' }).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: /^Notifications/ }).click();
    const item = page.getByRole('listitem').filter({ hasText: `Live chat requested by Dana (+${customer})` });
    await item.waitFor();
    expect(await item.textContent()).toContain(keyword);
    await shot(page, 'notifications');
    await page.getByTestId('unread-count').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('button', { name: 'Sync' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Synced \d+ templates/ })
      .waitFor();
    await page.getByRole('row').filter({ hasText: 'order_update' }).filter({ hasText: 'IMAGE' }).waitFor();
    await shot(page, 'templates');
    await page.getByRole('link', { name: 'order_update' }).click();
    await page.getByText('https://example.com/sandbox/order.jpg').first().waitFor();
    await shot(page, 'template');
  });

  it('when the overview is shown, then its figures are the messages the tests sent', async () => {
    // 996 from the CSV campaign and 2 from the opt-out campaign, plus the flow's reply to the customer.
    await page.getByRole('link', { name: 'Overview' }).click();
    await waitFor(
      async () => {
        await page.reload();
        const sent = await page.getByTestId('totals-24h-sent').textContent({ timeout: 10_000 });
        return sent === '999';
      },
      { what: 'the overview counting 999 sent', timeoutMs: 30_000 },
    );
    expect(await page.getByTestId('totals-30d-sent').textContent()).toBe('999');
    expect(await page.getByTestId('totals-24h-failed').textContent()).toBe('0');
    expect(
      await page
        .getByRole('img', { name: /per hour over the last 24 hours/ })
        .locator('canvas')
        .count(),
    ).toBe(1);
    const capacity = page.getByRole('row').filter({ hasText: big.channelAccountId });
    expect(await capacity.textContent()).toMatch(/\d+ used/);
    // The capacity is the number's business portfolio's (by default its WABA).
    const byNumber = page.getByRole('table', { name: 'Capacity by number' });
    expect(await byNumber.getByRole('columnheader', { name: 'Portfolio' }).count()).toBe(1);
    await shot(page, 'overview');
    expect(consoleErrors).toEqual([]);
  });

  it('when the new screens are shown at 390x844, then nothing overflows sideways', async () => {
    await expectNoSidewaysOverflow(browser, page.context(), base, [
      ['/', 'overview'],
      ['/campaigns', 'campaigns'],
      ['/campaigns/new', 'campaign-new'],
      ['/templates', 'templates'],
      ['/opt-outs', 'opt-outs'],
      ['/flows', 'flows'],
      ['/notifications', 'notifications'],
    ]);
  });
});
