import type { OptOutDeletedDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import { recordChange, syncMessagingCopy } from './record-opt-out-change';

/** Removes a phone; 404 OPT_OUT_NOT_FOUND when it is not on the list. */
export async function removeOptOut(
  deps: CampaignDeps,
  tenantId: number,
  phone: string,
): Promise<OptOutDeletedDto> {
  const change = await deps.dataSource.transaction(async (tx) => {
    if (!(await deps.optOuts.remove(tx, tenantId, phone))) throw new AppError('OPT_OUT_NOT_FOUND');
    return recordChange(deps, tx, { tenantId, phone, optedOut: false }, 'api');
  });
  await syncMessagingCopy(deps, change);
  return { phone, deleted: true };
}
