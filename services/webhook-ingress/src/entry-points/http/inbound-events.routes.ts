import type { Router } from 'express';
import { listInboundEventsQuerySchema, ok } from '@bm/contracts';
import { defineRoutes, validate } from '@bm/platform';
import { getInboundEvent } from '../../domain/get-inbound-event.use-case';
import type { IngressDeps } from '../../domain/ingress-deps';
import { listInboundEvents } from '../../domain/list-inbound-events.use-case';
import { reprocessInboundEvent } from '../../domain/reprocess-inbound-event.use-case';

/** The operators' audit API, reached through the gateway's /admin/v1 forwarding. */
export function inboundEventRoutes(router: Router, deps: IngressDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/admin/v1/inbound-events',
      handlers: [
        async (req, res) =>
          res.json(ok(await listInboundEvents(deps, validate(listInboundEventsQuerySchema, req.query)))),
      ],
    },
    {
      method: 'GET',
      path: '/admin/v1/inbound-events/:id',
      handlers: [async (req, res) => res.json(ok(await getInboundEvent(deps, String(req.params.id))))],
    },
    {
      method: 'POST',
      path: '/admin/v1/inbound-events/:id/reprocess',
      handlers: [async (req, res) => res.json(ok(await reprocessInboundEvent(deps, String(req.params.id))))],
    },
  ]);
}
