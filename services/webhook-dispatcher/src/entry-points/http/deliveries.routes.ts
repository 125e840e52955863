import type { Router } from 'express';
import { ok, webhookDeliveriesQuerySchema } from '@bm/contracts';
import { defineRoutes, tenantOf, validate } from '@bm/platform';
import type { DispatcherDeps } from '../../domain/dispatcher-deps';
import { listWebhookDeliveries } from '../../domain/list-webhook-deliveries.use-case';
import { redeliverWebhook } from '../../domain/redeliver-webhook.use-case';

/** The health monitor and redelivery. */
export function deliveriesRoutes(router: Router, deps: DispatcherDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/api/v1/webhooks/deliveries',
      handlers: [
        async (req, res) => {
          const tenantId = tenantOf(res);
          const query = validate(webhookDeliveriesQuerySchema, req.query);
          res.json(ok(await listWebhookDeliveries(deps, tenantId, query)));
        },
      ],
    },
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
