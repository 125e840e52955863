import type { Router } from 'express';
import { addOptOutSchema, listOptOutsQuerySchema, ok, optOutPhoneParamSchema } from '@bm/contracts';
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
          const { phone } = validate(addOptOutSchema, req.body ?? {});
          const { created, optOut } = await addOptOut(deps, tenantOf(res), phone, 'api');
          res.status(created ? 201 : 200).json(ok(optOut));
        },
      ],
    },
    {
      method: 'DELETE',
      path: '/api/v1/opt-outs/:phone',
      handlers: [
        async (req, res) => {
          const phone = validate(optOutPhoneParamSchema.label('phone'), String(req.params.phone));
          res.json(ok(await removeOptOut(deps, tenantOf(res), phone)));
        },
      ],
    },
  ]);
}
