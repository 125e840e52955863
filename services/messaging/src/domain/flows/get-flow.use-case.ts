import type { FlowDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { toFlowDto } from './flow.dto';
import type { MessagingDeps } from '../messaging-deps';

/** GET /api/v1/flows/{id}: the tenant's flow; another tenant's is 404 like an unknown one. */
export async function getFlow(
  deps: Pick<MessagingDeps, 'flows'>,
  tenantId: number,
  flowId: string,
): Promise<FlowDto> {
  const flow = await deps.flows.find(flowId, tenantId);
  if (!flow) throw new AppError('FLOW_NOT_FOUND');
  return toFlowDto(flow);
}
