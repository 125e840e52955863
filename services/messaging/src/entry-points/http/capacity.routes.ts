import type { Router } from 'express';
import Joi from 'joi';
import { languageCodeSchema, ok } from '@bm/contracts';
import { defineRoutes, tenantOf, validate } from '@bm/platform';
import { getCapacity } from '../../domain/capacity/get-capacity.use-case';
import { lookupCampaignTemplate } from '../../domain/capacity/lookup-campaign-template.use-case';
import { releaseCapacity } from '../../domain/capacity/release-capacity.use-case';
import { reserveCapacity } from '../../domain/capacity/reserve-capacity.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';

const reservationSchema = Joi.object<{ reference: string; count: number; partial: boolean }>({
  reference: Joi.string().min(1).max(200).required(),
  count: Joi.number().integer().min(0).max(10_000_000).required(),
  partial: Joi.boolean().default(false),
});

const templateLookupSchema = Joi.object<{ name: string; language?: string }>({
  name: Joi.string().max(512).required(),
  language: languageCodeSchema,
});

/**
 * Internal, for the campaign service (not on the public route table): the tier capacity of a number, holds on
 * it, and the template a campaign would send.
 */
export function capacityRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/internal/v1/channel-accounts/:id/campaign-template',
      handlers: [
        async (req, res) => {
          const query = validate(templateLookupSchema, req.query);
          const id = String(req.params.id);
          res.json(ok(await lookupCampaignTemplate(deps, tenantOf(res), id, query.name, query.language)));
        },
      ],
    },
    {
      method: 'GET',
      path: '/internal/v1/channel-accounts/:id/capacity',
      handlers: [
        async (req, res) => res.json(ok(await getCapacity(deps, tenantOf(res), String(req.params.id)))),
      ],
    },
    {
      method: 'POST',
      path: '/internal/v1/channel-accounts/:id/capacity/reservations',
      handlers: [
        async (req, res) => {
          const input = validate(reservationSchema, req.body ?? {});
          res.json(ok(await reserveCapacity(deps, tenantOf(res), String(req.params.id), input)));
        },
      ],
    },
    {
      method: 'DELETE',
      path: '/internal/v1/channel-accounts/:id/capacity/reservations/:reference',
      handlers: [
        async (req, res) => {
          await releaseCapacity(deps, tenantOf(res), String(req.params.id), String(req.params.reference));
          res.json(ok({ released: true }));
        },
      ],
    },
  ]);
}
