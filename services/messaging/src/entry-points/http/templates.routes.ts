import type { Router } from 'express';
import {
  createChannelAccountSchema,
  listTemplatesQuerySchema,
  ok,
  submitTemplateSchema,
  ulidSchema,
} from '@bm/contracts';
import { AppError, defineRoutes, tenantCreateRoute, tenantListRoute, tenantOf } from '@bm/platform';
import { connectChannelAccount, syncTemplates } from '../../domain/accounts/connect-channel-account.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { listChannelAccounts } from '../../domain/accounts/list-channel-accounts.use-case';
import { listTemplates } from '../../domain/templates/list-templates.use-case';
import { submitTemplate } from '../../domain/templates/submit-template.use-case';
import { toTemplateDto } from '../../domain/templates/template.dto';

/** Templates and sending numbers for tenants, and the operator's channel-account endpoints the gateway forwards. */
export function templateRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/api/v1/channel-accounts',
      handlers: [async (_req, res) => res.json(ok(await listChannelAccounts(deps, tenantOf(res))))],
    },
    tenantListRoute('/api/v1/templates', listTemplatesQuerySchema, async (tenantId, query) => ({
      templates: await listTemplates(deps, tenantId, query),
    })),
    tenantCreateRoute('/api/v1/templates', submitTemplateSchema, (tenantId, input) =>
      submitTemplate(deps, tenantId, input),
    ),
    tenantCreateRoute(
      '/admin/v1/tenants/:tenantId/channel-accounts',
      createChannelAccountSchema,
      (tenantId, input) => connectChannelAccount(deps, tenantId, input),
    ),
    {
      method: 'POST',
      path: '/admin/v1/channel-accounts/:id/templates/sync',
      handlers: [
        async (req, res) => {
          const id = String(req.params.id);
          if (ulidSchema.validate(id).error) throw new AppError('CHANNEL_ACCOUNT_NOT_FOUND');
          const { templates, webhooksSubscribed } = await syncTemplates(deps, id);
          res.json(
            ok({
              channel_account_id: id,
              templates: templates.map(toTemplateDto),
              webhooks_subscribed: webhooksSubscribed,
            }),
          );
        },
      ],
    },
  ]);
}
