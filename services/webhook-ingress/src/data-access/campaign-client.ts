import { CAMPAIGN_ENDPOINTS } from '@bm/contracts';
import type { InternalClient } from '@bm/platform';
import type { CustomerStops } from '../domain/ingress-ports';

/** The campaign service's opt-out list, over its internal endpoint. */
export class CampaignCustomerStops implements CustomerStops {
  constructor(private readonly campaign: InternalClient) {}

  async stop(tenantId: number, address: string, source: 'keyword' | 'marketing_stop'): Promise<void> {
    await this.campaign.call(CAMPAIGN_ENDPOINTS.customerStop, { tenantId, params: {}, input: { address, source } });
  }
}
