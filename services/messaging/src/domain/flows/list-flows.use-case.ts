import { paginationOf, type FlowListDto, type ListFlowsQuery } from '@bm/contracts';
import { toFlowDto } from './flow.dto';
import type { MessagingDeps } from '../messaging-deps';

/** GET /api/v1/flows: the tenant's flows, optionally of one account and one status. */
export async function listFlows(
  deps: Pick<MessagingDeps, 'flows'>,
  tenantId: number,
  query: ListFlowsQuery,
): Promise<FlowListDto> {
  const { items, total } = await deps.flows.list(
    tenantId,
    { channelAccountId: query.channel_account_id, status: query.status },
    query.page,
    query.per_page,
  );
  return { flows: items.map(toFlowDto), pagination: paginationOf(total, query.page, query.per_page) };
}
