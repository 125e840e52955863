import type { Router } from 'express';
import { ok } from '@bm/contracts';
import { defineRoutes, tenantOf } from '@bm/platform';
import { messageStats } from '../../domain/messages/message-stats.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { syncTenantTemplates } from '../../domain/templates/sync-tenant-templates.use-case';

/** What the dashboard needs beyond part 1: the overview's message figures, and Sync on the Templates screen. */
export function dashboardRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/api/v1/stats',
      handlers: [async (_req, res) => res.json(ok(await messageStats(deps, tenantOf(res))))],
    },
    {
      method: 'POST',
      path: '/api/v1/channel-accounts/:id/templates/sync',
      handlers: [
        async (req, res) =>
          res.json(ok(await syncTenantTemplates(deps, tenantOf(res), String(req.params.id)))),
      ],
    },
  ]);
}
