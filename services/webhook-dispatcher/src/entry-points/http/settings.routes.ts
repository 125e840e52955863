import type { Router } from 'express';
import { ok, webhookSettingsSchema } from '@bm/contracts';
import { defineRoutes, tenantOf, validate } from '@bm/platform';
import type { DispatcherDeps } from '../../domain/dispatcher-deps';
import { getWebhookSettings } from '../../domain/get-webhook-settings.use-case';
import { putWebhookSettings } from '../../domain/put-webhook-settings.use-case';
import { rotateWebhookSecret } from '../../domain/rotate-secret.use-case';
import { sendTestEvent } from '../../domain/send-test-event.use-case';

/** The tenant's endpoint: settings, secret rotation and the test ping. */
export function settingsRoutes(router: Router, deps: DispatcherDeps): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/api/v1/webhooks/settings',
      handlers: [async (_req, res) => res.json(ok(await getWebhookSettings(deps, tenantOf(res))))],
    },
    {
      method: 'PUT',
      path: '/api/v1/webhooks/settings',
      handlers: [
        async (req, res) => {
          const tenantId = tenantOf(res);
          const request = validate(webhookSettingsSchema, req.body ?? {});
          res.json(ok(await putWebhookSettings(deps, tenantId, request)));
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/v1/webhooks/settings/secret',
      handlers: [async (_req, res) => res.json(ok(await rotateWebhookSecret(deps, tenantOf(res))))],
    },
    {
      method: 'POST',
      path: '/api/v1/webhooks/test',
      handlers: [async (_req, res) => res.status(202).json(ok(await sendTestEvent(deps, tenantOf(res))))],
    },
  ]);
}
