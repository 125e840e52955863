import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '@bm/platform/testing';
import { allRecipients, phones, postCampaign, readCampaign, waitForCampaign } from '../support/campaigns';
import { sandboxSends } from '../support/messages';
import { campaignTestEnv, createTenant, startStack, type Stack } from '../support/stack';

// The gateway talks to an API-only campaign replica in this process; the campaign's background work runs in
// separate processes (the built service): one killed with SIGKILL in the middle of a dispatch, then several
// workers at once on one campaign.
let stack: Stack;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  stack = await startStack({ campaignEnv: { CAMPAIGN_ROLE: 'api' } });
}, 60_000);

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await stack?.stop();
});

function startWorker(): ChildProcess {
  const env = campaignTestEnv(stack.messagingUrl, {
    CAMPAIGN_ROLE: 'worker',
    CAMPAIGN_PORT: '0',
    DISPATCH_BATCH_SIZE: '10',
    DISPATCH_MAX_IN_FLIGHT: '20',
  });
  const worker = spawn(process.execPath, [path.join(__dirname, '../../services/campaign/dist/start.js')], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  workers.push(worker);
  return worker;
}

it('a campaign worker killed mid-dispatch and restarted sends every recipient exactly once', async () => {
  const t = await createTenant(stack, 'TIER_10K', { throughput_per_second: 25 });
  const list = phones(150);
  const first = startWorker();
  const res = await postCampaign(stack, t, { recipients: list.map((phone) => ({ phone })) }).expect(202);
  const id = res.body.data.campaign_id as string;
  // Kill it once sending is under way but far from done.
  await waitFor(async () => ((await readCampaign(stack, t, id)).sent_count as number) >= 20 || undefined, {
    timeoutMs: 20_000,
  });
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  const stopped = (await readCampaign(stack, t, id)).sent_count as number;
  expect(stopped).toBeLessThan(150);

  startWorker();
  const done = await waitForCampaign(stack, t, id, ['completed'], 60_000);
  expect(done).toMatchObject({ total_count: 150, sent_count: 150, failed_count: 0 });
  const recipients = await allRecipients(stack, t, id);
  expect(recipients.every((r) => r.status === 'sent')).toBe(true);
  expect(new Set(recipients.map((r) => r.message_log_id)).size).toBe(150);
  for (const phone of list) {
    const sends = await sandboxSends(stack, `to=${phone}`);
    expect(sends.map((s) => s.result)).toEqual(['accepted']);
  }
}, 90_000);

it('two campaign workers share one campaign and send each recipient once', async () => {
  const t = await createTenant(stack, 'TIER_10K', { throughput_per_second: 200 });
  const list = phones(300);
  const [a, b] = [startWorker(), startWorker()];
  const res = await postCampaign(stack, t, { recipients: list.map((phone) => ({ phone })) }).expect(202);
  const id = res.body.data.campaign_id as string;
  const done = await waitForCampaign(stack, t, id, ['completed'], 60_000);
  expect(done).toMatchObject({ total_count: 300, sent_count: 300, failed_count: 0 });
  for (const phone of list) {
    expect((await sandboxSends(stack, `to=${phone}`)).map((s) => s.result)).toEqual(['accepted']);
  }
  for (const worker of [a, b]) worker.kill('SIGTERM');
}, 90_000);
