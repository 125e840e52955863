import type { OptOutDto } from '@bm/contracts';
import type { OptOut } from '../ports/opt-outs.port';

/** An opt-out as the API shows it. */
export const toOptOutDto = (o: OptOut): OptOutDto => ({
  phone: o.phone,
  source: o.source,
  created_at: o.createdAt.toISOString(),
});
