import { paginationOf, type FlowSessionListDto, type ListFlowSessionsQuery } from '@bm/contracts';
import { toFlowSessionDto } from './flow.dto';
import type { MessagingDeps } from '../messaging-deps';
import { getFlow } from './get-flow.use-case';

/** GET /api/v1/flows/{id}/sessions, newest first. */
export async function listFlowSessions(
  deps: Pick<MessagingDeps, 'flows' | 'flowSessions'>,
  tenantId: number,
  flowId: string,
  query: ListFlowSessionsQuery,
): Promise<FlowSessionListDto> {
  await getFlow(deps, tenantId, flowId);
  const { items, total } = await deps.flowSessions.list(
    flowId,
    tenantId,
    query.status,
    query.page,
    query.per_page,
  );
  return {
    sessions: items.map(toFlowSessionDto),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}
