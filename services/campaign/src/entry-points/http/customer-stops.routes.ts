import type { Router } from 'express';
import { CAMPAIGN_ENDPOINTS } from '@bm/contracts';
import { defineRoutes, internalRoute, tenantOf } from '@bm/platform';
import type { CampaignDeps } from '../../domain/campaign-deps';
import { applyCustomerStop } from '../../domain/opt-outs/apply-inbound-keyword.use-case';

/** Internal, for webhook-ingress (not on the public route table): a customer's stop, applied before its 200. */
export function customerStopRoutes(router: Router, deps: CampaignDeps): void {
  defineRoutes(router, [
    internalRoute(CAMPAIGN_ENDPOINTS.customerStop, async ({ input }, res) => {
      await applyCustomerStop(deps, tenantOf(res), input.address, input.source);
      return { address: input.address };
    }),
  ]);
}
