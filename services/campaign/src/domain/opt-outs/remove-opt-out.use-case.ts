import { splitAddress, type OptOutDeletedDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { changeOptOut, setCustomerOptOut, type OptOutDeps } from './record-opt-out-change';

/** Removes a customer by phone or user id, with the addresses linked to it; 404 OPT_OUT_NOT_FOUND when not listed. */
export async function removeOptOut(
  deps: OptOutDeps,
  tenantId: number,
  address: string,
): Promise<OptOutDeletedDto> {
  await changeOptOut(deps, async (tx) => {
    if (!(await tx.optOuts.find(tenantId, address))) throw new AppError('OPT_OUT_NOT_FOUND');
    return { changes: await setCustomerOptOut(tx, tenantId, address, false, 'api') };
  });
  return { ...splitAddress(address), deleted: true };
}
