import type { Router } from 'express';
import type { SandboxDeps } from '../deps';
import { requireToken } from '../graph-auth';

/** `/{version}/{waba_id}/subscribed_apps`: subscribing the app to a WABA's webhooks. */
export function subscriptionsRoutes(router: Router, deps: SandboxDeps): void {
  const { state } = deps;

  router.post('/:wabaId/subscribed_apps', (req, res) => {
    requireToken(req);
    const wabaId = req.params.wabaId;
    state.subscriptions.set(wabaId, {
      waba_id: wabaId,
      subscribed_at: new Date().toISOString(),
      body: req.body,
    });
    res.json({ success: true });
  });

  router.get('/:wabaId/subscribed_apps', (req, res) => {
    requireToken(req);
    const subscribed = state.subscriptions.has(req.params.wabaId);
    res.json({
      data: subscribed
        ? [{ whatsapp_business_api_data: { id: '1000000000000001', name: 'Upstream Sandbox App', link: '' } }]
        : [],
    });
  });

  router.delete('/:wabaId/subscribed_apps', (req, res) => {
    requireToken(req);
    state.subscriptions.delete(req.params.wabaId);
    res.json({ success: true });
  });
}
