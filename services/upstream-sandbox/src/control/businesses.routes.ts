import Joi from 'joi';
import type { Router } from 'express';
import type { SandboxDeps } from '../deps';
import { TIER_LIMITS } from '../sends/portfolio-limit';
import { businessOf, type BusinessRecord } from '../state';
import { businessCapabilityEnvelope } from '../webhooks-out/envelopes';
import { validateControl } from './validate';

interface BusinessInput {
  max_daily_conversations_per_business: string;
  notify: boolean;
}

const businessSchema = Joi.object<BusinessInput>({
  max_daily_conversations_per_business: Joi.string()
    .valid(...Object.keys(TIER_LIMITS))
    .required(),
  notify: Joi.boolean().default(true),
});

function visible(business: BusinessRecord): Record<string, unknown> {
  return {
    business_id: business.business_id,
    max_daily_conversations_per_business: business.max_daily_conversations_per_business,
    reached_24h: business.reached.size,
  };
}

/**
 * `/_sandbox/businesses`: a business portfolio's daily limit on business-initiated messaging, shared by every
 * number whose `business_id` (default: its WABA id) it is. Only portfolios set here are limited.
 */
export function businessesRoutes(router: Router, deps: SandboxDeps): void {
  const { state, webhooks } = deps;

  router.put('/businesses/:businessId', async (req, res) => {
    const input = validateControl(businessSchema, req.body);
    const businessId = req.params.businessId;
    const business: BusinessRecord = {
      business_id: businessId,
      max_daily_conversations_per_business: input.max_daily_conversations_per_business,
      reached: state.businesses.get(businessId)?.reached ?? new Map<string, number>(),
    };
    state.businesses.set(businessId, business);
    let delivered: boolean | undefined;
    if (input.notify) {
      // One account-level webhook per WABA of the portfolio's numbers (the portfolio's own id when none).
      const targets = new Map<string, string>();
      for (const number of state.numbers.values()) {
        if (businessOf(number) === businessId && !targets.has(number.waba_id)) {
          targets.set(number.waba_id, number.webhook_url ?? state.settings.webhookUrl);
        }
      }
      if (targets.size === 0) targets.set(businessId, state.settings.webhookUrl);
      const results = await Promise.all(
        [...targets].map(([wabaId, url]) =>
          webhooks.deliver(
            'business_capability_update',
            { url, secret: state.settings.appSecret },
            businessCapabilityEnvelope(wabaId, input.max_daily_conversations_per_business),
          ),
        ),
      );
      delivered = results.every(Boolean);
    }
    res.json({ ...visible(business), ...(delivered === undefined ? {} : { delivered }) });
  });

  router.get('/businesses', (_req, res) => {
    res.json({ data: [...state.businesses.values()].map(visible) });
  });
}
