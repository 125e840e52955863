import { splitAddress, type OptOutDto } from '@bm/contracts';
import type { OptOut } from '../ports/opt-outs.port';

/** An opt-out as the API shows it: the customer by phone or by user id. */
export const toOptOutDto = (o: OptOut): OptOutDto => ({
  ...splitAddress(o.phone),
  source: o.source,
  created_at: o.createdAt.toISOString(),
});
