import { ulid } from 'ulidx';
import { DIRECT_STATUS_ROUTING_KEY, DOMAIN_EVENTS, domainEventOf, type DomainEventKey } from '@bm/contracts';
import { uniqueSuffix } from '@bm/platform/testing';
import type { Stack, TenantFixture } from './stack';

/** An inbound item's fields with the envelope webhook-ingress gives it (its own event id and time). */
export function inboundItem(fields: Record<string, unknown>): Record<string, unknown> & { event_id: string } {
  return { event_id: ulid(), tenant_id: null, occurred_at: new Date().toISOString(), ...fields };
}

/** Publishes an item as webhook-ingress would, on the run's exchange (`headers`: e.g. a retry's attempt). */
export async function publishInbound(
  stack: Stack,
  routingKey: DomainEventKey,
  fields: Record<string, unknown>,
  headers: Record<string, unknown> = {},
): Promise<void> {
  const item = inboundItem(fields);
  await stack.broker.publish(routingKey, item, { messageId: item.event_id, headers });
}

/** A delivery receipt for a sent message. */
export function statusReport(
  t: TenantFixture,
  providerMessageId: string,
  status: string,
  errors: unknown[] = [],
) {
  return {
    waba_id: t.wabaId,
    phone_number_id: t.phoneNumberId,
    provider_message_id: providerMessageId,
    status,
    recipient_id: '0',
    errors,
    pricing_category: null,
    conversation_id: null,
  };
}

/** A customer's text message, which opens the service window. */
export function inboundText(t: TenantFixture, from: string, text: string) {
  return {
    waba_id: t.wabaId,
    phone_number_id: t.phoneNumberId,
    message_id: `wamid.in.${uniqueSuffix()}`,
    from,
    name: 'Customer',
    type: 'text',
    text,
    media: null,
    button_payload: null,
    context_message_id: null,
    raw: { type: 'text', text: { body: text } },
  };
}

/**
 * The events or items a published message carries, each named by its event: a batch of status items
 * (`inbound.statuses`, ingress's webhooks received together) as each `inbound.status` it holds, a batch of status
 * events (`message.statuses_updated`) as each `message.status_updated` it holds with its own trace, a status event
 * under DIRECT_STATUS_ROUTING_KEY as the `message.status_updated` it is, anything else as itself.
 */
export function itemsOf<P extends Record<string, unknown>>(
  routingKey: string,
  payload: P,
  headers: Record<string, unknown> = {},
): Array<{ routingKey: string; payload: P; traceparent?: unknown }> {
  if (routingKey === DOMAIN_EVENTS.inboundStatuses)
    return (payload.statuses as P[]).map((item) => ({
      routingKey: DOMAIN_EVENTS.inboundStatus,
      payload: item,
    }));
  if (routingKey === DOMAIN_EVENTS.messageStatusesUpdated)
    return (payload.events as Array<{ event: P; traceparent: string | null }>).map((e) => ({
      routingKey: DOMAIN_EVENTS.messageStatusUpdated,
      payload: e.event,
      traceparent: e.traceparent ?? undefined,
    }));
  return [{ routingKey: domainEventOf(routingKey), payload, traceparent: headers.traceparent }];
}

/**
 * Collects every event published under the given events' routing keys while the test runs, each named by its
 * event (a status event of no campaign recipient comes under DIRECT_STATUS_ROUTING_KEY, and one of a batch in
 * `message.statuses_updated`: both are collected too).
 */
export async function collectEvents(
  stack: Stack,
  keys: string[],
): Promise<Array<{ routingKey: string; payload: Record<string, unknown> }>> {
  const seen: Array<{ routingKey: string; payload: Record<string, unknown> }> = [];
  const bindings = [
    ...keys,
    ...(keys.includes(DOMAIN_EVENTS.messageStatusUpdated)
      ? [DIRECT_STATUS_ROUTING_KEY, DOMAIN_EVENTS.messageStatusesUpdated]
      : []),
    // Status items arrive one by one, or in a batch of ingress's (seen here as the items it holds).
    ...(keys.includes(DOMAIN_EVENTS.inboundStatus) ? [DOMAIN_EVENTS.inboundStatuses] : []),
  ];
  await stack.broker.consume(`e2e.collect.${uniqueSuffix()}`, bindings, async (m) => {
    seen.push(...itemsOf(m.routingKey, m.payload as Record<string, unknown>));
    await Promise.resolve();
  });
  return seen;
}
