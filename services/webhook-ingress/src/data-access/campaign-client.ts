import { CAMPAIGN_ENDPOINTS } from '@bm/contracts';
import type { InternalClient } from '@bm/platform';
import type { CustomerStops } from '../domain/ingress-ports';

/** The campaign service's opt-out list, over its internal endpoint. */
export class CampaignCustomerStops implements CustomerStops {
  constructor(private readonly campaign: InternalClient) {}

  async stop(tenantId: number, stop: Parameters<CustomerStops['stop']>[1]): Promise<void> {
    const input = { address: stop.address, source: stop.source, ...stop.at };
    await this.campaign.call(CAMPAIGN_ENDPOINTS.customerStop, { tenantId, params: {}, input });
  }
}
