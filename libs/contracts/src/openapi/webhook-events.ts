import { WEBHOOK_EVENTS, type WebhookEventName } from '../events';
import { CAMPAIGN_STATUSES } from '../schemas/campaigns';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '../schemas/templates';
import { object, TEMPLATE_FLAG } from './dto-schemas';
import type { JsonSchema } from './joi-to-json-schema';

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const oneOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
const free: JsonSchema = { type: 'object', additionalProperties: true };

/** ISO 8601 with offset, as `formatWebhookTimestamp` prints it: `2026-11-22T09:30:00+00:00`. */
const OFFSET_TIMESTAMP: JsonSchema = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$',
  examples: ['2026-11-22T09:30:00+00:00'],
};

const campaign = { campaign_id: str, name: nullable(str), status: oneOf(CAMPAIGN_STATUSES) };
const counts = { total_count: int, sent_count: int, failed_count: int };
const template = {
  name: str,
  language: str,
  status: oneOf(TEMPLATE_STATUSES),
  category: nullable(oneOf(TEMPLATE_CATEGORIES)),
  reason: nullable(str),
  flag: TEMPLATE_FLAG,
};
const flow = { flow_id: str, session_id: str, phone: str, variables: free };

/** The event-specific fields of each outbound event (CONTRACT.md "Event bodies"; events.ts types). */
const EVENT_FIELDS: Record<WebhookEventName, Record<string, JsonSchema>> = {
  'message.status_updated': {
    message_log_id: int,
    status: oneOf(['sent', 'delivered', 'read', 'failed']),
    to_phone: nullable(str),
    provider_message_id: nullable(str),
    error_message: nullable(str),
    campaign_id: nullable(str),
  },
  'message.received': {
    channel_account_id: str,
    from: nullable(str),
    from_user_id: nullable(str),
    username: nullable(str),
    name: nullable(str),
    message_id: str,
    type: str,
    text: nullable(str),
    media: nullable(
      object({ id: str, mime_type: str, sha256: str, caption: str, filename: str }, [
        'sha256',
        'caption',
        'filename',
      ]),
    ),
  },
  'campaign.created': { ...campaign, ...counts },
  'campaign.started': { ...campaign, ...counts },
  'campaign.completed': { ...campaign, ...counts },
  'template.submitted': template,
  'template.status_changed': template,
  'flow.session_started': flow,
  'flow.session_completed': flow,
  'flow.session_cancelled': flow,
  'account.quality_event': { channel_account_id: str, kind: str, details: free },
  'webhook.test': { message: str },
};

/** The JSON body POSTed for one event: the common fields, then the event's own. */
export function webhookEventSchema(event: WebhookEventName): JsonSchema {
  return object({
    event: { const: event },
    tenant_id: int,
    timestamp: OFFSET_TIMESTAMP,
    ...EVENT_FIELDS[event],
  });
}

const DELIVERY_HEADERS = {
  'User-Agent': {
    description: '`<service_name>-Webhook/1.0`',
    schema: { type: 'string', pattern: '-Webhook/1\\.0$' },
  },
  'X-Webhook-Timestamp': {
    required: true,
    description: 'When this delivery was signed (ISO 8601 with offset); new on every redelivery',
    schema: OFFSET_TIMESTAMP,
  },
  'X-Webhook-Signature': {
    // The signing secret is optional (POST /api/v1/webhooks/settings/secret makes one): unsigned without it.
    required: false,
    description:
      'Only when the endpoint has a signing secret. `sha256=<hex>`: HMAC-SHA256 over ' +
      '`<X-Webhook-Timestamp>.<raw body>` keyed with the whole signing secret (`whsec_…`) as UTF-8. During a ' +
      'rotation grace period both, new first: `sha256=<new> sha256=<old>`',
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}( sha256=[0-9a-f]{64})?$' },
  },
  'X-Webhook-Id': {
    required: true,
    description: '`evt_<ULID>`, the same on every retry and redelivery: drop duplicates by it',
    schema: { type: 'string', pattern: '^evt_[0-9A-HJKMNP-TV-Z]{26}$' },
  },
};

/** What an event means, where its name does not say it all. */
const EVENT_DESCRIPTIONS: Partial<Record<WebhookEventName, string>> = {
  'template.status_changed':
    "A template's status changed, or its quality flag did: the upstream's FLAGGED keeps the status (an " +
    'APPROVED template stays sendable) and sets `flag`; a later APPROVED or REINSTATED clears it, and only a ' +
    'PAUSED or DISABLED stops the template',
};

/** The OpenAPI 3.1 `webhooks` section: one POST per outbound event, as the client's endpoint receives it. */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event,
      {
        post: {
          operationId: `webhook_${event.replace('.', '_')}`,
          summary: `The ${event} event, POSTed to the tenant's webhook URL`,
          ...(EVENT_DESCRIPTIONS[event] === undefined ? {} : { description: EVENT_DESCRIPTIONS[event] }),
          tags: ['Outbound webhooks'],
          // The service calls the client: no credential of ours; the receiver checks X-Webhook-Signature.
          security: [],
          parameters: Object.entries(DELIVERY_HEADERS).map(([name, header]) => ({
            name,
            in: 'header',
            ...header,
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: webhookEventSchema(event) } },
          },
          responses: {
            '2XX': { description: 'Delivered; any other answer or no answer within the timeout is retried' },
          },
        },
      },
    ]),
  );
}
