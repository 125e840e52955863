import type { OptOutDeletedDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { changeOptOut, recordChange, type OptOutDeps } from './record-opt-out-change';

/** Removes a phone; 404 OPT_OUT_NOT_FOUND when it is not on the list. */
export async function removeOptOut(
  deps: OptOutDeps,
  tenantId: number,
  phone: string,
): Promise<OptOutDeletedDto> {
  await changeOptOut(deps, async (tx) => {
    if (!(await tx.optOuts.remove(tenantId, phone))) throw new AppError('OPT_OUT_NOT_FOUND');
    return { change: await recordChange(tx, { tenantId, phone, optedOut: false }, 'api') };
  });
  return { phone, deleted: true };
}
