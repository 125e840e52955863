import { MESSAGING_ENDPOINTS } from '@bm/contracts';
import type { InternalClient } from '@bm/platform';
import type { CampaignTemplate, Capacity, MessagingPort } from '../domain/ports/messaging.port';
import type { OptOutChange } from '../domain/ports/opt-outs.port';

/**
 * Messaging's internal endpoints a campaign needs, called through their contracts (MESSAGING_ENDPOINTS): the
 * template it would send, the number's tier capacity, holds on that capacity, messaging's copy of the
 * opt-outs, and what a campaign's messages cost so far. Messaging's own refusals (NO_ACTIVE_ACCOUNT,
 * TEMPLATE_NOT_FOUND, …) come back as the same AppError; messaging unreachable is 503 SERVICE_UNAVAILABLE, so
 * nothing is half-done (see InternalClient).
 */
export class MessagingClient implements MessagingPort {
  constructor(private readonly client: InternalClient) {}

  campaignTemplate(
    tenantId: number,
    accountId: string,
    name: string,
    language?: string,
  ): Promise<CampaignTemplate> {
    return this.client.call(MESSAGING_ENDPOINTS.campaignTemplate, {
      tenantId,
      params: { id: accountId },
      input: { name, language },
    });
  }

  capacity(tenantId: number, accountId: string): Promise<Capacity> {
    return this.client.call(MESSAGING_ENDPOINTS.capacity, { tenantId, params: { id: accountId } });
  }

  reserve(
    tenantId: number,
    accountId: string,
    reference: string,
    count: number,
    partial: boolean,
  ): Promise<{ granted: number; capacity: Capacity }> {
    return this.client.call(MESSAGING_ENDPOINTS.reserveCapacity, {
      tenantId,
      params: { id: accountId },
      input: { reference, count, partial },
    });
  }

  async release(tenantId: number, accountId: string, reference: string): Promise<void> {
    await this.client.call(MESSAGING_ENDPOINTS.releaseCapacity, {
      tenantId,
      params: { id: accountId, reference },
    });
  }

  async setOptOut(change: OptOutChange): Promise<void> {
    await this.client.call(MESSAGING_ENDPOINTS.setOptOutCopy, {
      tenantId: change.tenantId,
      params: { phone: change.phone },
      input: { opted_out: change.optedOut, version: change.version },
    });
  }

  async campaignCost(tenantId: number, campaignId: string, currency: string): Promise<number> {
    const answer = await this.client.call(MESSAGING_ENDPOINTS.campaignCost, {
      tenantId,
      params: { id: campaignId },
      input: { currency },
    });
    return answer.cost_amount;
  }
}
