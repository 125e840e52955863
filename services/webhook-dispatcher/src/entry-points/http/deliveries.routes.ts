import type { Router } from 'express';
import { ok, webhookDeliveriesQuerySchema } from '@bm/contracts';
import { defineRoutes, tenantListRoute, tenantOf } from '@bm/platform';
import type { DispatcherDeps } from '../../domain/dispatcher-deps';
import { listWebhookDeliveries } from '../../domain/list-webhook-deliveries.use-case';
import { redeliverWebhook } from '../../domain/redeliver-webhook.use-case';

/** The health monitor and redelivery. */
export function deliveriesRoutes(router: Router, deps: DispatcherDeps): void {
  defineRoutes(router, [
    tenantListRoute('/api/v1/webhooks/deliveries', webhookDeliveriesQuerySchema, (tenantId, query) =>
      listWebhookDeliveries(deps, tenantId, query),
    ),
    {
      method: 'POST',
      path: '/api/v1/webhooks/deliveries/:id/redeliver',
      handlers: [
        async (req, res) =>
          res.status(202).json(ok(await redeliverWebhook(deps, tenantOf(res), String(req.params.id)))),
      ],
    },
  ]);
}
