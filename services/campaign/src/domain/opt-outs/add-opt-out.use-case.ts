import type { OptOutDto, OptOutSource } from '@bm/contracts';
import { toOptOutDto } from './opt-out.dto';
import { changeOptOut, setCustomerOptOut, type OptOutDeps } from './record-opt-out-change';

/**
 * Adds a customer by phone or user id (201 when new), with the addresses linked to it; adding one already there
 * answers it as it is, 200, and tells nobody.
 */
export async function addOptOut(
  deps: OptOutDeps,
  tenantId: number,
  address: string,
  source: OptOutSource,
): Promise<{ created: boolean; optOut: OptOutDto }> {
  const { changes, optOut } = await changeOptOut(deps, async (tx) => {
    const made = await setCustomerOptOut(tx, tenantId, address, true, source);
    return { changes: made, optOut: (await tx.optOuts.find(tenantId, address))! };
  });
  return { created: changes.some((c) => c.phone === address), optOut: toOptOutDto(optOut) };
}
