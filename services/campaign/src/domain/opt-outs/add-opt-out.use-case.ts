import type { OptOutDto, OptOutSource } from '@bm/contracts';
import { toOptOutDto } from './opt-out.dto';
import { changeOptOut, recordChange, type OptOutDeps } from './record-opt-out-change';

/** Adds a phone (201 when new); adding one already there answers it as it is, 200, and tells nobody. */
export async function addOptOut(
  deps: OptOutDeps,
  tenantId: number,
  phone: string,
  source: OptOutSource,
): Promise<{ created: boolean; optOut: OptOutDto }> {
  const { change, optOut } = await changeOptOut(deps, async (tx) => {
    const added = await tx.optOuts.add(tenantId, phone, source);
    if (!added) return { change: null, optOut: (await tx.optOuts.find(tenantId, phone))! };
    return {
      change: await recordChange(tx, { tenantId, phone, optedOut: true }, source),
      optOut: added,
    };
  });
  return { created: change !== null, optOut: toOptOutDto(optOut) };
}
