import type { Router } from 'express';
import { MESSAGING_ENDPOINTS } from '@bm/contracts';
import { defineRoutes, internalRoute, tenantOf } from '@bm/platform';
import { getCapacity } from '../../domain/capacity/get-capacity.use-case';
import { lookupCampaignTemplate } from '../../domain/capacity/lookup-campaign-template.use-case';
import { releaseCapacity } from '../../domain/capacity/release-capacity.use-case';
import { reserveCapacity } from '../../domain/capacity/reserve-capacity.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { campaignCost } from '../../domain/pricing/campaign-cost.use-case';

/**
 * Internal, for the campaign service (not on the public route table): the tier capacity of a number, holds on
 * it, the template a campaign would send, and what a campaign's messages cost so far. Paths and schemas are the
 * contracts of MESSAGING_ENDPOINTS.
 */
export function capacityRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    internalRoute(MESSAGING_ENDPOINTS.campaignTemplate, ({ params, input }, res) =>
      lookupCampaignTemplate(deps, tenantOf(res), params.id, input.name, input.language),
    ),
    internalRoute(MESSAGING_ENDPOINTS.capacity, ({ params }, res) =>
      getCapacity(deps, tenantOf(res), params.id),
    ),
    internalRoute(MESSAGING_ENDPOINTS.reserveCapacity, ({ params, input }, res) =>
      reserveCapacity(deps, tenantOf(res), params.id, input),
    ),
    internalRoute(MESSAGING_ENDPOINTS.releaseCapacity, async ({ params }, res) => {
      await releaseCapacity(deps, tenantOf(res), params.id, params.reference);
      return { released: true };
    }),
    internalRoute(MESSAGING_ENDPOINTS.campaignCost, ({ params, input }, res) =>
      campaignCost(deps, tenantOf(res), params.id, input.currency),
    ),
  ]);
}
