import type { FlowDto, FlowStatus } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { toFlowDto } from './flow.dto';
import type { MessagingDeps } from '../messaging-deps';

/** POST /api/v1/flows/{id}/activate and /deactivate; a deactivated flow starts no session, running ones finish. */
export async function setFlowStatus(
  deps: Pick<MessagingDeps, 'flows'>,
  tenantId: number,
  flowId: string,
  status: FlowStatus,
): Promise<FlowDto> {
  const flow = await deps.flows.setStatus(flowId, tenantId, status);
  if (!flow) throw new AppError('FLOW_NOT_FOUND');
  return toFlowDto(flow);
}
