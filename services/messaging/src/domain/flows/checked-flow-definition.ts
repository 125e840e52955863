import type { FlowDefinition, SaveFlowRequest } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { flowGraphErrors } from './flow-rules';
import type { MessagingDeps } from '../messaging-deps';

/** The graph checked beyond the schema, and the account the tenant's own. */
export async function checkedDefinition(
  deps: Pick<MessagingDeps, 'accounts'>,
  tenantId: number,
  request: SaveFlowRequest,
): Promise<FlowDefinition> {
  const errors = flowGraphErrors(request.steps);
  if (errors.length > 0) throw new AppError('VALIDATION_ERROR', 'The flow is invalid', { errors });
  if (!(await deps.accounts.findActiveForTenant(request.channel_account_id, tenantId))) {
    throw new AppError('NO_ACTIVE_ACCOUNT');
  }
  return { trigger: request.trigger, timeout_seconds: request.timeout_seconds, steps: request.steps };
}
