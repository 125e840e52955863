import { paginationOf, type ListOptOutsQuery, type OptOutListDto } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { toOptOutDto } from './opt-out.dto';

export async function listOptOuts(
  deps: Pick<CampaignDeps, 'optOuts'>,
  tenantId: number,
  query: ListOptOutsQuery,
): Promise<OptOutListDto> {
  const { optOuts, total } = await deps.optOuts.page(tenantId, query.page, query.per_page, query.phone);
  return { opt_outs: optOuts.map(toOptOutDto), pagination: paginationOf(total, query.page, query.per_page) };
}
