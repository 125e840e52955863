import type { Router } from 'express';
import type { SandboxDeps } from '../deps';
import { requireToken } from '../graph-auth';
import { businessOf, numberInfo } from '../state';

/** `GET /{version}/{phone_number_id}`: the number's profile, tier and throughput level. */
export function phoneNumberRoutes(router: Router, deps: SandboxDeps): void {
  router.get('/:phoneNumberId', (req, res) => {
    requireToken(req);
    const number = numberInfo(deps.state, req.params.phoneNumberId);
    const mps = number.mps ?? deps.state.settings.defaultMps;
    res.json({
      id: number.phone_number_id,
      display_phone_number: number.display_phone_number,
      verified_name: 'Upstream Sandbox',
      quality_rating: 'GREEN',
      // The portfolio's limit, when one was set for it, is every one of its numbers' limit.
      messaging_limit_tier:
        deps.state.businesses.get(businessOf(number))?.max_daily_conversations_per_business ??
        number.messaging_limit_tier ??
        'TIER_1K',
      throughput: { level: mps === 0 || mps > 80 ? 'HIGH' : 'STANDARD' },
    });
  });
}
