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

/** The payload fields each published event carries, in the order its body lists them after the common ones. */
type PublishedFields = {
  [K in DeliverableDomainEvent]: ReadonlyArray<keyof DomainEventPayloads[K] & string>;
};

const CAMPAIGN_FIELDS = [
  'campaign_id',
  'name',
  'status',
  'total_count',
  'sent_count',
  'failed_count',
] as const satisfies ReadonlyArray<keyof CampaignEventFields>;
const FLOW_SESSION_FIELDS = ['flow_id', 'session_id', 'phone', 'variables'] as const;
const TEMPLATE_FIELDS = ['name', 'language', 'status', 'category', 'reason', 'flag'] as const;

const PUBLISHED_FIELDS: PublishedFields = {
  'message.status_updated': [
    'message_log_id',
    'status',
    'to_phone',
    'provider_message_id',
    'error_message',
    'campaign_id',
  ],
  'message.received': [
    'channel_account_id',
    'from',
    'from_user_id',
    'username',
    'name',
    'message_id',
    'type',
    'text',
    'media',
  ],
  'campaign.created': CAMPAIGN_FIELDS,
  'campaign.started': CAMPAIGN_FIELDS,
  'campaign.completed': CAMPAIGN_FIELDS,
  'template.submitted': TEMPLATE_FIELDS,
  'template.status_changed': TEMPLATE_FIELDS,
  'account.quality_event': ['channel_account_id', 'kind', 'details'],
  'flow.session_started': FLOW_SESSION_FIELDS,
  'flow.session_completed': FLOW_SESSION_FIELDS,
  'flow.session_cancelled': FLOW_SESSION_FIELDS,
};

/**
 * The published body of a domain event, or undefined when it is not published (a message status other than
 * sent, delivered, read or failed: the API promises webhooks for those changes only). The body is the event's
 * name, tenant and time, then its published fields (PUBLISHED_FIELDS) as the domain event carries them.
 */
export function toWebhookBody<K extends DeliverableDomainEvent>(
  event: K,
  payload: DomainEventPayloads[K],
): WebhookEventBody | undefined {
  if (event === 'message.status_updated') {
    const { status } = payload as DomainEventPayloads['message.status_updated'];
    if (!PUBLISHED_STATUSES.has(status)) return undefined;
  }
  const body: Record<string, unknown> = {
    event,
    tenant_id: payload.tenant_id,
    timestamp: formatWebhookTimestamp(new Date(payload.occurred_at)),
  };
  // A field an older producer did not write yet (a 2026 field) is published as null, never left out.
  for (const field of PUBLISHED_FIELDS[event]) body[field] = payload[field] ?? null;
  return body as unknown as WebhookEventBody;
}
