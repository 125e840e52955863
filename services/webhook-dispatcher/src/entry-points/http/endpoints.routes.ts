import type { Router } from 'express';
import { createWebhookEndpointSchema, ok, updateWebhookEndpointSchema } from '@bm/contracts';
import { defineRoutes, tenantOf, validate } from '@bm/platform';
import type { DispatcherDeps } from '../../domain/dispatcher-deps';
import { createWebhookEndpoint } from '../../domain/endpoints/create-webhook-endpoint.use-case';
import { deleteWebhookEndpoint } from '../../domain/endpoints/delete-webhook-endpoint.use-case';
import { listWebhookEndpoints } from '../../domain/endpoints/list-webhook-endpoints.use-case';
import { rotateEndpointSecret } from '../../domain/endpoints/rotate-endpoint-secret.use-case';
import { sendEndpointTest } from '../../domain/endpoints/send-endpoint-test.use-case';
import { updateWebhookEndpoint } from '../../domain/endpoints/update-webhook-endpoint.use-case';

const BASE = '/api/v1/webhooks/endpoints';

/** The tenant's endpoints: each with its own event filter and signing secret. */
export function endpointsRoutes(router: Router, deps: DispatcherDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: BASE,
      handlers: [async (_req, res) => res.json(ok(await listWebhookEndpoints(deps, tenantOf(res))))],
    },
    {
      method: 'POST',
      path: BASE,
      handlers: [
        async (req, res) => {
          const tenantId = tenantOf(res);
          const request = validate(createWebhookEndpointSchema, req.body ?? {});
          res.status(201).json(ok(await createWebhookEndpoint(deps, tenantId, request)));
        },
      ],
    },
    {
      method: 'PATCH',
      path: `${BASE}/:id`,
      handlers: [
        async (req, res) => {
          const tenantId = tenantOf(res);
          const request = validate(updateWebhookEndpointSchema, req.body ?? {});
          res.json(ok(await updateWebhookEndpoint(deps, tenantId, String(req.params.id), request)));
        },
      ],
    },
    {
      method: 'DELETE',
      path: `${BASE}/:id`,
      handlers: [
        async (req, res) =>
          res.json(ok(await deleteWebhookEndpoint(deps, tenantOf(res), String(req.params.id)))),
      ],
    },
    {
      method: 'POST',
      path: `${BASE}/:id/secret`,
      handlers: [
        async (req, res) =>
          res.json(ok(await rotateEndpointSecret(deps, tenantOf(res), String(req.params.id)))),
      ],
    },
    {
      method: 'POST',
      path: `${BASE}/:id/test`,
      handlers: [
        async (req, res) =>
          res.status(202).json(ok(await sendEndpointTest(deps, tenantOf(res), String(req.params.id)))),
      ],
    },
  ]);
}
