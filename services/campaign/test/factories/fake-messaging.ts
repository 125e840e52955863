import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TemplateDto } from '@bm/contracts';
import { testEnv } from '@bm/platform/testing';

/** A number messaging knows: its tenant and its daily tier limit (null: unlimited). */
interface Account {
  tenantId: number;
  dailyLimit: number | null;
  /** Conversations opened today: what the holds of finished campaigns became. */
  used: number;
  /** Capacity held per reference (a campaign id). */
  holds: Map<string, number>;
}

/** The MARKETING template every account has: one body value. */
export const SALE_TEMPLATE: Omit<TemplateDto, 'channel_account_id'> = {
  id: '01JTEMPLATE0000000000000001',
  name: 'spring_sale',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  header_format: null,
  header_sample_media_url: null,
  components: [{ type: 'BODY', text: 'Hi {{1}}, our sale starts today.' }],
  flag: null,
  rejected_reason: null,
};

const ROUTE =
  /^\/internal\/v1\/(?:channel-accounts\/([^/?]+)\/(campaign-template|capacity)(?:\/reservations(?:\/([^/?]+))?)?|opt-outs\/([^/?]+))(?:\?(.*))?$/;
const COST_ROUTE = /^\/internal\/v1\/campaigns\/([^/?]+)\/cost\?currency=([A-Z]{3})$/;

/**
 * Messaging's internal routes a campaign calls, over real HTTP: the template lookup, the number's capacity and
 * holds on it (kept per account as messaging's ledger would), messaging's copy of the opt-outs, and what a
 * campaign's messages cost so far (as a test sets it; an unknown campaign costs 0).
 */
export async function startFakeMessaging() {
  const accounts = new Map<string, Account>();
  /** What each campaign's messages cost, by tenant and campaign, in the currency given. */
  const costs = new Map<string, { amount: number; currency: string }>();
  /** When set, the cost route answers 500, as a failing messaging would. */
  let costsFail = false;
  /** Messaging's copy of each opt-out, by tenant and phone: the last version it was told. */
  const optOutCopies = new Map<string, { opted_out: boolean; version: number }>();
  const answer = (res: ServerResponse, status: number, data: unknown, code?: string) =>
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(
        JSON.stringify(code ? { success: false, error: { code, message: code } } : { success: true, data }),
      );
  const capacityOf = (a: Account) => {
    const used = a.used + [...a.holds.values()].reduce((sum, n) => sum + n, 0);
    return {
      daily_limit: a.dailyLimit,
      used_today: used,
      remaining: a.dailyLimit === null ? null : Math.max(0, a.dailyLimit - used),
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = (chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {}) as Record<
      string,
      unknown
    >;
    const tenantId = Number(req.headers['x-bm-tenant-id']);
    if (req.headers['x-internal-token'] !== testEnv().INTERNAL_TOKEN)
      return answer(res, 401, null, 'INVALID_API_KEY');
    const [, campaignId, currency] = COST_ROUTE.exec(req.url ?? '') ?? [];
    if (campaignId) {
      if (costsFail) return answer(res, 500, null, 'INTERNAL_ERROR');
      const cost = costs.get(`${tenantId}:${campaignId}`);
      const amount = cost && cost.currency === currency ? cost.amount : 0;
      return answer(res, 200, { campaign_id: campaignId, cost_amount: amount, cost_currency: currency });
    }
    const [, accountId, resource, reference, phone, query] = ROUTE.exec(req.url ?? '') ?? [];
    if (phone) {
      optOutCopies.set(
        `${tenantId}:${decodeURIComponent(phone)}`,
        body as { opted_out: boolean; version: number },
      );
      return answer(res, 200, { phone });
    }
    const account = accounts.get(accountId);
    if (!account || account.tenantId !== tenantId) return answer(res, 422, null, 'NO_ACTIVE_ACCOUNT');
    if (resource === 'campaign-template') {
      const name = new URLSearchParams(query).get('name');
      if (name !== SALE_TEMPLATE.name) return answer(res, 422, null, 'TEMPLATE_NOT_FOUND');
      const template = { ...SALE_TEMPLATE, channel_account_id: accountId };
      return answer(res, 200, { template, throughput_per_second: 80 });
    }
    if (req.method === 'GET') return answer(res, 200, capacityOf(account));
    if (req.method === 'DELETE') {
      // A finished campaign's hold becomes the conversations its messages opened.
      account.used += account.holds.get(reference) ?? 0;
      account.holds.delete(reference);
      return answer(res, 200, { released: true });
    }
    const { reference: ref, count, partial } = body as { reference: string; count: number; partial: boolean };
    account.holds.delete(ref);
    const available = capacityOf(account).remaining ?? count;
    const granted = count <= available ? count : partial ? available : 0;
    if (granted > 0) account.holds.set(ref, granted);
    answer(res, 200, { granted, capacity: capacityOf(account) });
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Makes a number known to "messaging" for the tenant. */
    addAccount(id: string, tenantId: number, dailyLimit: number | null = null) {
      accounts.set(id, { tenantId, dailyLimit, used: 0, holds: new Map() });
    },
    /** What messaging was last told about the opt-out of a tenant's phone. */
    optOutCopyOf: (tenantId: number, phone: string) => optOutCopies.get(`${tenantId}:${phone}`),
    /** Sets what a tenant's campaign's messages cost so far, as messaging would sum them. */
    setCampaignCost(tenantId: number, campaignId: string, amount: number, currency = 'USD') {
      costs.set(`${tenantId}:${campaignId}`, { amount, currency });
    },
    /** Makes the cost route fail (true) or answer again (false). */
    failCampaignCosts(fail: boolean) {
      costsFail = fail;
    },
    /** Capacity held for a reference on an account. */
    holdOf: (accountId: string, reference: string) => accounts.get(accountId)?.holds.get(reference),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type FakeMessaging = Awaited<ReturnType<typeof startFakeMessaging>>;
