import type { Router } from 'express';
import Joi from 'joi';
import { ok } from '@bm/contracts';
import { defineRoutes, tenantOf, validate } from '@bm/platform';
import { applyOptOutChange } from '../../domain/opt-outs/apply-opt-out-change.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';

const optOutCopySchema = Joi.object<{ phone: string; opted_out: boolean; version: number }>({
  phone: Joi.string()
    .pattern(/^\d{1,15}$/)
    .required(),
  opted_out: Joi.boolean().required(),
  version: Joi.number().integer().min(1).required(),
});

/**
 * Internal, for the campaign service (not on the public route table): sets this service's copy of an opt-out
 * as soon as the change commits there, so a MARKETING send right after the client's change is checked against it.
 */
export function optOutCopyRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    {
      method: 'PUT',
      path: '/internal/v1/opt-outs/:phone',
      handlers: [
        async (req, res) => {
          const input = validate(optOutCopySchema, { ...(req.body ?? {}), phone: req.params.phone });
          await applyOptOutChange(deps, { tenant_id: tenantOf(res), ...input });
          res.json(ok({ phone: input.phone, opted_out: input.opted_out }));
        },
      ],
    },
  ]);
}
