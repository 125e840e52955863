import type { Router } from 'express';
import {
  campaignRecipientsQuerySchema,
  createCampaignQuerySchema,
  createCampaignSchema,
  listCampaignsQuerySchema,
  ok,
} from '@bm/contracts';
import {
  defineRoutes,
  idempotencyKeyOf,
  sendIdempotentAnswer,
  streamCsv,
  tenantListRoute,
  tenantOf,
  validate,
} from '@bm/platform';
import type { CampaignDeps } from '../../domain/campaign-deps';
import { createCampaign } from '../../domain/creating/create-campaign.use-case';
import { planCampaign } from '../../domain/creating/plan-campaign.use-case';
import { cancelCampaign } from '../../domain/managing/cancel-campaign.use-case';
import { exportRecipients } from '../../domain/managing/export-recipients.use-case';
import { getCampaign } from '../../domain/managing/get-campaign.use-case';
import { listCampaigns } from '../../domain/managing/list-campaigns.use-case';
import { listRecipients } from '../../domain/managing/list-recipients.use-case';
import { pauseCampaign } from '../../domain/managing/pause-campaign.use-case';
import { resumeCampaign } from '../../domain/managing/resume-campaign.use-case';
import { retryCampaign } from '../../domain/managing/retry-campaign.use-case';
import { stopCampaign } from '../../domain/managing/stop-campaign.use-case';

/** The campaign endpoints of the public API (the gateway forwards them with the tenant). */
export function campaignRoutes(router: Router, deps: CampaignDeps): void {
  const id = (params: Record<string, unknown>) => String(params.id);
  defineRoutes(router, [
    {
      method: 'POST',
      path: '/api/v1/campaigns',
      handlers: [
        async (req, res) => {
          const tenantId = tenantOf(res);
          const { dry_run: dryRun } = validate(createCampaignQuerySchema, req.query);
          const key = dryRun ? undefined : idempotencyKeyOf(req);
          // A recipient row with unstorable text fails alone, like an invalid phone, not the whole list.
          const request = validate(createCampaignSchema, req.body ?? {}, { rowsFailAlone: 'recipients' });
          if (dryRun) {
            res.json(ok(await planCampaign(deps, tenantId, request)));
            return;
          }
          const rawBody = req.rawBody?.toString('utf8') ?? JSON.stringify(req.body);
          const answer = await createCampaign(deps, tenantId, request, rawBody, key);
          sendIdempotentAnswer(res, answer);
        },
      ],
    },
    tenantListRoute('/api/v1/campaigns', listCampaignsQuerySchema, (tenantId, query) =>
      listCampaigns(deps, tenantId, query),
    ),
    {
      method: 'GET',
      path: '/api/v1/campaigns/:id',
      handlers: [async (req, res) => res.json(ok(await getCampaign(deps, tenantOf(res), id(req.params))))],
    },
    {
      method: 'GET',
      path: '/api/v1/campaigns/:id/recipients',
      handlers: [
        async (req, res) => {
          const query = validate(campaignRecipientsQuerySchema, req.query);
          res.json(ok(await listRecipients(deps, tenantOf(res), id(req.params), query)));
        },
      ],
    },
    {
      method: 'GET',
      path: '/api/v1/campaigns/:id/recipients/export',
      handlers: [
        async (req, res) => {
          const { filename, header, pages } = await exportRecipients(deps, tenantOf(res), id(req.params));
          await streamCsv(res, filename, header, pages);
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/v1/campaigns/:id/stop',
      handlers: [async (req, res) => res.json(ok(await stopCampaign(deps, tenantOf(res), id(req.params))))],
    },
    {
      method: 'POST',
      path: '/api/v1/campaigns/:id/cancel',
      handlers: [async (req, res) => res.json(ok(await cancelCampaign(deps, tenantOf(res), id(req.params))))],
    },
    {
      method: 'POST',
      path: '/api/v1/campaigns/:id/retry',
      handlers: [
        async (req, res) =>
          res.status(202).json(ok(await retryCampaign(deps, tenantOf(res), id(req.params)))),
      ],
    },
    {
      method: 'POST',
      path: '/api/v1/campaigns/:id/pause',
      handlers: [async (req, res) => res.json(ok(await pauseCampaign(deps, tenantOf(res), id(req.params))))],
    },
    {
      method: 'POST',
      path: '/api/v1/campaigns/:id/resume',
      handlers: [async (req, res) => res.json(ok(await resumeCampaign(deps, tenantOf(res), id(req.params))))],
    },
  ]);
}
