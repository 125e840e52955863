import type { Router } from 'express';
import { MESSAGING_ENDPOINTS } from '@bm/contracts';
import { defineRoutes, internalRoute, tenantOf } from '@bm/platform';
import { applyOptOutChange } from '../../domain/opt-outs/apply-opt-out-change.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';

/**
 * Internal, for the campaign service (not on the public route table): sets this service's copy of an opt-out
 * as soon as the change commits there, so a MARKETING send right after the client's change is checked against it.
 */
export function optOutCopyRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    internalRoute(MESSAGING_ENDPOINTS.setOptOutCopy, async ({ params, input }, res) => {
      await applyOptOutChange(deps, { tenant_id: tenantOf(res), phone: params.phone, ...input });
      return { phone: params.phone, opted_out: input.opted_out };
    }),
  ]);
}
