import {
  formatWebhookTimestamp,
  WEBHOOK_EVENT_ID_PREFIX,
  WEBHOOK_EVENTS,
  type CampaignEventFields,
  type DomainEventPayloads,
  type WebhookEventBody,
  type WebhookEventName,
} from '@bm/contracts';

/** The domain events that become webhooks: every published event but the test ping. */
export type DeliverableDomainEvent = Exclude<WebhookEventName, 'webhook.test'>;

export const DELIVERABLE_DOMAIN_EVENTS: readonly DeliverableDomainEvent[] = WEBHOOK_EVENTS.filter(
  (name): name is DeliverableDomainEvent => name !== 'webhook.test',
);
const PUBLISHED_STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

/**
 * The webhook event id of a domain event: `evt_` + the domain event's own ULID. Deterministic, so a domain event
 * that RabbitMQ delivers twice maps to the same webhook event (the unique key drops the copy), and the ULID's
 * time part keeps ids sortable by when the event happened.
 */
export function webhookEventId(domainEventId: string): string {
  return `${WEBHOOK_EVENT_ID_PREFIX}${domainEventId}`;
}

/**
 * The published body of a domain event, or undefined when it is not published (a message status other than
 * sent, delivered, read or failed: the API promises webhooks for those changes only).
 */
export function toWebhookBody<K extends DeliverableDomainEvent>(
  event: K,
  payload: DomainEventPayloads[K],
): WebhookEventBody | undefined {
  const base = {
    tenant_id: payload.tenant_id,
    timestamp: formatWebhookTimestamp(new Date(payload.occurred_at)),
  };
  // Narrowed per case through a union of [name, payload] pairs so each branch sees its own fields.
  const e = { event, payload } as EventAndPayload;
  switch (e.event) {
    case 'message.status_updated': {
      const p = e.payload;
      if (!PUBLISHED_STATUSES.has(p.status)) return undefined;
      return {
        event: e.event,
        ...base,
        message_log_id: p.message_log_id,
        status: p.status as 'sent' | 'delivered' | 'read' | 'failed',
        to_phone: p.to_phone,
        provider_message_id: p.provider_message_id,
        error_message: p.error_message,
        campaign_id: p.campaign_id,
      };
    }
    case 'message.received': {
      const p = e.payload;
      return {
        event: e.event,
        ...base,
        channel_account_id: p.channel_account_id,
        from: p.from,
        name: p.name,
        message_id: p.message_id,
        type: p.type,
        text: p.text,
        media: p.media,
      };
    }
    case 'campaign.created':
    case 'campaign.started':
    case 'campaign.completed': {
      const p = e.payload;
      // Typed apart from `event`: three event names times nine statuses is past the union size TypeScript
      // checks a discriminated object literal against.
      const fields: CampaignEventFields = {
        campaign_id: p.campaign_id,
        name: p.name,
        status: p.status,
        total_count: p.total_count,
        sent_count: p.sent_count,
        failed_count: p.failed_count,
      };
      return { event: e.event, ...base, ...fields } as WebhookEventBody;
    }
    case 'template.submitted':
    case 'template.status_changed': {
      const p = e.payload;
      return {
        event: e.event,
        ...base,
        name: p.name,
        language: p.language,
        status: p.status,
        category: p.category,
        reason: p.reason,
        flag: p.flag,
      };
    }
    case 'account.quality_event': {
      const p = e.payload;
      return {
        event: e.event,
        ...base,
        channel_account_id: p.channel_account_id,
        kind: p.kind,
        details: p.details,
      };
    }
    case 'flow.session_started':
    case 'flow.session_completed':
    case 'flow.session_cancelled': {
      const p = e.payload;
      return {
        event: e.event,
        ...base,
        flow_id: p.flow_id,
        session_id: p.session_id,
        phone: p.phone,
        variables: p.variables,
      };
    }
  }
}

type EventAndPayload = {
  [K in DeliverableDomainEvent]: { event: K; payload: DomainEventPayloads[K] };
}[DeliverableDomainEvent];
