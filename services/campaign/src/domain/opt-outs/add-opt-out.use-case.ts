import type { OptOutDto, OptOutSource } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { toOptOutDto } from './opt-out.dto';
import { recordChange, syncMessagingCopy } from './record-opt-out-change';

/** Adds a phone (201 when new); adding one already there answers it as it is, 200, and tells nobody. */
export async function addOptOut(
  deps: CampaignDeps,
  tenantId: number,
  phone: string,
  source: OptOutSource,
): Promise<{ created: boolean; optOut: OptOutDto }> {
  const { change, optOut } = await deps.dataSource.transaction(async (tx) => {
    const added = await deps.optOuts.add(tx, tenantId, phone, source);
    if (!added) return { change: null, optOut: (await deps.optOuts.find(tenantId, phone, tx))! };
    return {
      change: await recordChange(deps, tx, { tenantId, phone, optedOut: true }, source),
      optOut: added,
    };
  });
  if (change) await syncMessagingCopy(deps, change);
  return { created: change !== null, optOut: toOptOutDto(optOut) };
}
