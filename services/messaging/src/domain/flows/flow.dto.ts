import type { FlowDto, FlowSessionDto } from '@bm/contracts';
import type { Flow } from '../ports/flow.port';
import type { FlowSession } from '../ports/flow-session.port';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function toFlowDto(f: Flow): FlowDto {
  return {
    flow_id: f.id,
    channel_account_id: f.channelAccountId,
    name: f.name,
    trigger: f.definition.trigger,
    timeout_seconds: f.definition.timeout_seconds,
    steps: f.definition.steps,
    status: f.status,
    version: f.version,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
  };
}

export function toFlowSessionDto(s: FlowSession): FlowSessionDto {
  return {
    session_id: s.id,
    flow_id: s.flowId,
    flow_version: s.flowVersion,
    channel_account_id: s.channelAccountId,
    phone: s.phone,
    status: s.status,
    current_step: s.currentStep,
    variables: s.variables,
    started_at: s.startedAt.toISOString(),
    expires_at: iso(s.expiresAt),
    ended_at: iso(s.endedAt),
  };
}
