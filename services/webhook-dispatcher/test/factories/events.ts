import { ulid } from 'ulidx';
import type { AmqpClient } from '@bm/platform';
import type { DomainEventKey } from '@bm/contracts';

/** A domain event as its producer would publish it: event_id (also the messageId), tenant_id, occurred_at. */
export function domainEvent(tenantId: number, fields: Record<string, unknown>): Record<string, unknown> {
  return { event_id: ulid(), tenant_id: tenantId, occurred_at: new Date().toISOString(), ...fields };
}

export function statusUpdated(tenantId: number, overrides: Record<string, unknown> = {}) {
  return domainEvent(tenantId, {
    message_log_id: Math.floor(Math.random() * 1e9) + 1,
    channel_account_id: ulid(),
    status: 'sent',
    previous_status: 'queued',
    to_phone: '14155550123',
    provider_message_id: `wamid.${ulid()}`,
    error_code: null,
    error_message: null,
    campaign_id: null,
    campaign_recipient_id: null,
    ...overrides,
  });
}

export function campaignCompleted(tenantId: number) {
  return domainEvent(tenantId, {
    campaign_id: ulid(),
    name: 'Spring sale',
    status: 'completed',
    total_count: 3,
    sent_count: 2,
    failed_count: 1,
    campaign_group_id: null,
  });
}

/** Status events in one batch message, as messaging sends those of a status batch (message.statuses_updated). */
export function statusesBatch(
  events: Array<{ event: Record<string, unknown>; traceparent: string | null }>,
): Record<string, unknown> {
  return { event_id: ulid(), occurred_at: new Date().toISOString(), events };
}

/** Publishes like the outbox relay: persistent, confirmed, with the event id as messageId. */
export async function publish(
  publisher: AmqpClient,
  key: DomainEventKey,
  payload: Record<string, unknown>,
): Promise<void> {
  await publisher.publish(key, payload, { messageId: payload.event_id as string });
}
