import type { FlowDto, SaveFlowRequest } from '@bm/contracts';
import { newUlid } from '@bm/platform';
import { toFlowDto } from './flow.dto';
import type { MessagingDeps } from '../messaging-deps';
import { checkedDefinition } from './checked-flow-definition';

/** POST /api/v1/flows: saved as version 1, inactive until activated. */
export async function createFlow(
  deps: Pick<MessagingDeps, 'unitOfWork' | 'flows' | 'accounts'>,
  tenantId: number,
  request: SaveFlowRequest,
): Promise<FlowDto> {
  const definition = await checkedDefinition(deps, tenantId, request);
  const flow = await deps.unitOfWork.inTransaction((tx) =>
    deps.flows.insert(tx, {
      id: newUlid(),
      tenantId,
      channelAccountId: request.channel_account_id,
      name: request.name,
      definition,
    }),
  );
  return toFlowDto(flow);
}
