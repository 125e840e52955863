import type { Router } from 'express';
import {
  addOptOutSchema,
  isUserIdAddress,
  listOptOutsQuerySchema,
  ok,
  optOutPhoneParamSchema,
} from '@bm/contracts';
import { defineRoutes, tenantListRoute, tenantOf, validate } from '@bm/platform';
import type { CampaignDeps } from '../../domain/campaign-deps';
import { addOptOut } from '../../domain/opt-outs/add-opt-out.use-case';
import { listOptOuts } from '../../domain/opt-outs/list-opt-outs.use-case';
import { removeOptOut } from '../../domain/opt-outs/remove-opt-out.use-case';

/** The tenant's opted-out contacts (CONTRACT.md). */
export function optOutRoutes(router: Router, deps: CampaignDeps): void {
  defineRoutes(router, [
    tenantListRoute('/api/v1/opt-outs', listOptOutsQuerySchema, (tenantId, query) =>
      listOptOuts(deps, tenantId, query),
    ),
    {
      method: 'POST',
      path: '/api/v1/opt-outs',
      handlers: [
        async (req, res) => {
          const { phone, user_id: userId } = validate(addOptOutSchema, req.body ?? {});
          const { created, optOut } = await addOptOut(deps, tenantOf(res), (userId ?? phone)!, 'api');
          res.status(created ? 201 : 200).json(ok(optOut));
        },
      ],
    },
    {
      method: 'DELETE',
      path: '/api/v1/opt-outs/:phone',
      handlers: [
        async (req, res) => {
          // The path names the customer by phone or by user id.
          const path = String(req.params.phone);
          const address = isUserIdAddress(path)
            ? path
            : validate(optOutPhoneParamSchema.label('phone'), path);
          res.json(ok(await removeOptOut(deps, tenantOf(res), address)));
        },
      ],
    },
  ]);
}
