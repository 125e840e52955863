import type { Router } from 'express';
import { CAMPAIGN_ENDPOINTS } from '@bm/contracts';
import { defineRoutes, internalRoute, tenantOf } from '@bm/platform';
import type { CampaignDeps } from '../../domain/campaign-deps';
import { applyCustomerStop, choiceTimeOf } from '../../domain/opt-outs/apply-inbound-keyword.use-case';

/** Internal, for webhook-ingress (not on the public route table): a customer's stop, applied before its 200. */
export function customerStopRoutes(router: Router, deps: CampaignDeps): void {
  defineRoutes(router, [
    internalRoute(CAMPAIGN_ENDPOINTS.customerStop, async ({ input }, res) => {
      const at = choiceTimeOf(input.chosen_at, input.received_at, new Date().toISOString());
      await applyCustomerStop(deps, tenantOf(res), { address: input.address, at }, input.source);
      return { address: input.address };
    }),
  ]);
}
