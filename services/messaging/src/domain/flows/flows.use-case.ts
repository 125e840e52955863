import {
  paginationOf,
  type FlowDefinition,
  type FlowDto,
  type FlowListDto,
  type FlowSessionListDto,
  type FlowStatus,
  type ListFlowSessionsQuery,
  type ListFlowsQuery,
  type SaveFlowRequest,
} from '@bm/contracts';
import { AppError, newUlid } from '@bm/platform';
import { toFlowDto, toFlowSessionDto } from './flow.dto';
import { flowGraphErrors } from './flow-rules';
import type { MessagingDeps } from '../messaging-deps';

/** The graph checked beyond the schema, and the account the tenant's own. */
async function checkedDefinition(
  deps: MessagingDeps,
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

/** POST /api/v1/flows: saved as version 1, inactive until activated. */
export async function createFlow(
  deps: MessagingDeps,
  tenantId: number,
  request: SaveFlowRequest,
): Promise<FlowDto> {
  const definition = await checkedDefinition(deps, tenantId, request);
  const flow = await deps.dataSource.transaction((tx) =>
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

/** PUT /api/v1/flows/{id}: a new version; sessions already running finish on the version they started. */
export async function updateFlow(
  deps: MessagingDeps,
  tenantId: number,
  flowId: string,
  request: SaveFlowRequest,
): Promise<FlowDto> {
  await getFlow(deps, tenantId, flowId);
  const definition = await checkedDefinition(deps, tenantId, request);
  const flow = await deps.dataSource.transaction((tx) =>
    deps.flows.saveVersion(tx, flowId, tenantId, {
      channelAccountId: request.channel_account_id,
      name: request.name,
      definition,
    }),
  );
  if (!flow) throw new AppError('FLOW_NOT_FOUND');
  return toFlowDto(flow);
}

export async function getFlow(deps: MessagingDeps, tenantId: number, flowId: string): Promise<FlowDto> {
  const flow = await deps.flows.find(deps.dataSource, flowId, tenantId);
  if (!flow) throw new AppError('FLOW_NOT_FOUND');
  return toFlowDto(flow);
}

/** POST /api/v1/flows/{id}/activate and /deactivate; a deactivated flow starts no session, running ones finish. */
export async function setFlowStatus(
  deps: MessagingDeps,
  tenantId: number,
  flowId: string,
  status: FlowStatus,
): Promise<FlowDto> {
  const flow = await deps.flows.setStatus(flowId, tenantId, status);
  if (!flow) throw new AppError('FLOW_NOT_FOUND');
  return toFlowDto(flow);
}

export async function listFlows(
  deps: MessagingDeps,
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

/** GET /api/v1/flows/{id}/sessions, newest first. */
export async function listFlowSessions(
  deps: MessagingDeps,
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
