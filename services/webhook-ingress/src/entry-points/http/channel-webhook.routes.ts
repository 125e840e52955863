import express, { type Router } from 'express';
import { ok } from '@bm/contracts';
import { defineRoutes } from '@bm/platform';
import type { IngressDeps } from '../../domain/ingress-deps';
import { receiveWebhook } from '../../domain/receive-webhook.use-case';
import { verifySubscription } from '../../domain/verify-subscription.use-case';

/**
 * The upstream network's endpoints. No internal credential: the upstream reaches them through the gateway or
 * its own ingress route, and proves itself with the verify token or the body's signature.
 */
export function channelWebhookRoutes(router: Router, deps: IngressDeps): void {
  // The signature covers the exact bytes, so the body is read raw whatever its content type, never parsed first.
  const rawBody = express.raw({ type: () => true, limit: deps.config.BODY_LIMIT });
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/api/webhooks/channel',
      handlers: [
        (req, res) => {
          const challenge = verifySubscription(
            deps.config.INGRESS_VERIFY_TOKEN,
            {
              mode: req.query['hub.mode'],
              token: req.query['hub.verify_token'],
              challenge: req.query['hub.challenge'],
            },
            deps.logger,
          );
          res.type('text/plain').send(challenge);
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/webhooks/channel',
      handlers: [
        rawBody,
        async (req, res) => {
          const { eventId } = await receiveWebhook(deps, {
            rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
            signature: req.get('x-hub-signature-256'),
            headers: req.headers,
            requestId: (res.locals.requestId as string | undefined) ?? null,
          });
          res.json(ok({ received: true, event_id: eventId }));
        },
      ],
    },
  ]);
}
