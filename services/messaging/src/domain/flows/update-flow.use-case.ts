import type { FlowDto, SaveFlowRequest } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { toFlowDto } from './flow.dto';
import type { MessagingDeps } from '../messaging-deps';
import { checkedDefinition } from './checked-flow-definition';
import { getFlow } from './get-flow.use-case';

/** PUT /api/v1/flows/{id}: a new version; sessions already running finish on the version they started. */
export async function updateFlow(
  deps: Pick<MessagingDeps, 'unitOfWork' | 'flows' | 'accounts'>,
  tenantId: number,
  flowId: string,
  request: SaveFlowRequest,
): Promise<FlowDto> {
  await getFlow(deps, tenantId, flowId);
  const definition = await checkedDefinition(deps, tenantId, request);
  const flow = await deps.unitOfWork.inTransaction((tx) =>
    deps.flows.saveVersion(tx, flowId, tenantId, {
      channelAccountId: request.channel_account_id,
      name: request.name,
      definition,
    }),
  );
  if (!flow) throw new AppError('FLOW_NOT_FOUND');
  return toFlowDto(flow);
}
