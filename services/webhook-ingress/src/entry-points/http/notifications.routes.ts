import type { Router } from 'express';
import Joi from 'joi';
import { ok, paginationQuerySchema } from '@bm/contracts';
import { defineRoutes, tenantOf, validate } from '@bm/platform';
import type { IngressDeps } from '../../domain/ingress-deps';
import { listNotifications } from '../../domain/list-notifications.use-case';

const listQuerySchema = Joi.object<{ page: number; per_page: number }>({ ...paginationQuerySchema });

/** The tenant API's notifications, reached through the gateway with the tenant it authenticated. */
export function notificationRoutes(router: Router, deps: IngressDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/api/v1/notifications',
      handlers: [
        async (req, res) => {
          const tenantId = tenantOf(res);
          res.json(ok(await listNotifications(deps, tenantId, validate(listQuerySchema, req.query))));
        },
      ],
    },
  ]);
}
