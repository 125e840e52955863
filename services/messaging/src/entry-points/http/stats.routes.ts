import type { Router } from 'express';
import { ok } from '@bm/contracts';
import { defineRoutes, tenantOf } from '@bm/platform';
import { messageStats } from '../../domain/message-stats.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';

/** GET /api/v1/stats: the dashboard overview's message figures. */
export function statsRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/api/v1/stats',
      handlers: [async (_req, res) => res.json(ok(await messageStats(deps, tenantOf(res))))],
    },
  ]);
}
