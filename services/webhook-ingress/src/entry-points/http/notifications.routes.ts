import type { Router } from 'express';
import Joi from 'joi';
import { paginationQuerySchema } from '@bm/contracts';
import { defineRoutes, tenantListRoute } from '@bm/platform';
import type { IngressDeps } from '../../domain/ingress-deps';
import { listNotifications } from '../../domain/list-notifications.use-case';

const listQuerySchema = Joi.object<{ page: number; per_page: number }>({ ...paginationQuerySchema });

/** The tenant API's notifications, reached through the gateway with the tenant it authenticated. */
export function notificationRoutes(router: Router, deps: IngressDeps): void {
  defineRoutes(router, [
    tenantListRoute('/api/v1/notifications', listQuerySchema, (tenantId, query) =>
      listNotifications(deps, tenantId, query),
    ),
  ]);
}
