import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { randomPhone, type Stack, type TenantFixture } from './stack';

export type CampaignView = Record<string, unknown> & { status: string; total_count: number };

/** POST /api/v1/campaigns through the gateway: hello_world (no placeholders) unless overridden. */
export function postCampaign(
  stack: Stack,
  t: TenantFixture,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return request(stack.gatewayUrl)
    .post('/api/v1/campaigns')
    .set({ ...t.auth, ...headers })
    .send({
      channel_account_id: t.channelAccountId,
      message_type: 'template',
      template_name: 'hello_world',
      recipients: [{ phone: randomPhone() }],
      ...body,
    });
}

export function phones(count: number): string[] {
  const set = new Set<string>();
  while (set.size < count) set.add(randomPhone());
  return [...set];
}

export async function readCampaign(stack: Stack, t: TenantFixture, id: string): Promise<CampaignView> {
  const res = await request(stack.gatewayUrl).get(`/api/v1/campaigns/${id}`).set(t.auth);
  if (res.status !== 200) throw new Error(`campaign ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as CampaignView;
}

/** Polls until the campaign is in one of the statuses. */
export function waitForCampaign(
  stack: Stack,
  t: TenantFixture,
  id: string,
  statuses: string[],
  timeoutMs = 20_000,
): Promise<CampaignView> {
  return waitFor(
    async () => {
      const c = await readCampaign(stack, t, id);
      return statuses.includes(c.status) ? c : undefined;
    },
    { timeoutMs, what: `campaign ${id} ${statuses.join('|')}` },
  );
}

/** Every recipient of a campaign, page by page. */
export async function allRecipients(
  stack: Stack,
  t: TenantFixture,
  id: string,
  status?: string,
): Promise<Array<Record<string, unknown>>> {
  const all: Array<Record<string, unknown>> = [];
  for (let page = 1; ; page += 1) {
    const res = await request(stack.gatewayUrl)
      .get(`/api/v1/campaigns/${id}/recipients`)
      .query({ page, per_page: 100, ...(status ? { status } : {}) })
      .set(t.auth)
      .expect(200);
    all.push(...(res.body.data.recipients as Array<Record<string, unknown>>));
    if (page >= (res.body.data.pagination.last_page as number)) return all;
  }
}
