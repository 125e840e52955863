import type { CampaignDeps } from '../campaign-deps';
import { prepareUpload } from './prepare-campaign.use-case';

// Lists looked up at a time by the sweep.
const SWEEP_BATCH = 50;

/**
 * Prepares every list left waiting (by a crashed replica, or while the database was away), one by one: a list
 * that fails is logged and left for the next sweep while the lists after it go on.
 */
export async function prepareWaitingUploads(
  deps: Pick<
    CampaignDeps,
    'unitOfWork' | 'campaigns' | 'uploads' | 'metrics' | 'logger' | 'wakeDispatcher' | 'rateCard'
  >,
): Promise<number> {
  let prepared = 0;
  const tried: string[] = [];
  for (;;) {
    const ids = await deps.uploads.waitingUploadIds(tried, SWEEP_BATCH);
    if (ids.length === 0) break;
    for (const id of ids) {
      tried.push(id);
      try {
        if (await prepareUpload(deps, id)) prepared += 1;
      } catch (err) {
        deps.logger.warn('campaign list not prepared; the next sweep tries it again', {
          upload_id: id,
          error: (err as Error).message,
        });
      }
    }
  }
  if (prepared > 0) deps.wakeDispatcher();
  return prepared;
}
