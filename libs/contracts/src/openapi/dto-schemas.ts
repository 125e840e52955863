import { WEBHOOK_EVENTS } from '../events';
import { ROLES } from '../roles';
import { UPSTREAM_ID_PATTERN } from '../schemas/admin';
import { CAMPAIGN_STATUSES } from '../schemas/campaigns';
import { RECIPIENT_STATUSES } from '../schemas/campaign-recipients';
import { MESSAGING_TIERS } from '../schemas/common';
import { CONVERSATION_CATEGORIES } from '../schemas/messages';
import { FLOW_SESSION_STATUSES, FLOW_STATUSES, saveFlowSchema } from '../schemas/flows';
import { CONVERSATION_STATUSES, MESSAGE_DIRECTIONS } from '../schemas/conversations';
import {
  INBOUND_EVENT_OUTCOMES,
  INBOUND_ITEM_STATES,
  INBOUND_ROUTING_KEYS,
  INBOUND_SIGNING_SECRETS,
} from '../schemas/inbound-audit';
import { MESSAGE_LOG_TYPES, MESSAGE_STATUSES } from '../schemas/message-logs';
import { OPT_OUT_SOURCES } from '../schemas/opt-outs';
import { TEMPLATE_CATEGORIES, TEMPLATE_HEADER_FORMATS, TEMPLATE_STATUSES } from '../schemas/templates';
import { WEBHOOK_DELIVERY_STATUSES } from '../schemas/webhooks';
import { joiToJsonSchema, type JsonSchema } from './joi-to-json-schema';

/*
 * Response schemas of the DTO interfaces in ../schemas, which have no joi schema because the services build
 * them. Enums come from the same constants as the TypeScript types; the response validation test holds the
 * rest to the real answers.
 */

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const instant: JsonSchema = { type: 'string', format: 'date-time', description: 'UTC, toISOString() form' };
const ulid: JsonSchema = { type: 'string', pattern: '^[0-9A-HJKMNP-TV-Z]{26}$' };
const upstreamId: JsonSchema = { type: 'string', pattern: UPSTREAM_ID_PATTERN.source };
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const oneOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A closed object: every listed property is required unless named in `optional`. */
export function object(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

/** A template's quality flag (TemplateFlagDto), in listings and in template events. */
export const TEMPLATE_FLAG: JsonSchema = {
  ...nullable(
    object({
      reason: nullable({ type: 'string', description: "The upstream's reason; null when it gave none" }),
      flagged_at: instant,
    }),
  ),
  description:
    "The upstream's quality flag (its FLAGGED event): the template's quality is low and the upstream may pause " +
    'or disable it later, but its status stays (APPROVED) and it can still be sent. Cleared when the upstream ' +
    'approves or reinstates it; null when not flagged',
};

/** A webhook endpoint (WebhookEndpointDto). */
const WEBHOOK_ENDPOINT_FIELDS: Record<string, JsonSchema> = {
  endpoint_id: ulid,
  url: str,
  events: nullable({
    type: 'array',
    items: oneOf(WEBHOOK_EVENTS),
    description: 'Events sent to it; null sends all (webhook.test always goes)',
  }),
  description: nullable(str),
  enabled: { type: 'boolean' },
  default: {
    type: 'boolean',
    description:
      'The default endpoint: the one of /api/v1/webhooks/settings and of POST /api/v1/webhooks/test',
  },
  secret_set: { type: 'boolean' },
  created_at: instant,
  updated_at: instant,
};

export const DTO_SCHEMAS: Record<string, JsonSchema> = {
  Pagination: object({ current_page: int, per_page: int, total: int, last_page: int }),
  SendAcknowledgement: object({
    status: oneOf(['queued', 'scheduled']),
    message_log_id: int,
    conversation_category: oneOf(CONVERSATION_CATEGORIES),
    cost: { type: 'number' },
    scheduled_at: nullable(instant),
  }),
  MessageLog: object({
    message_log_id: int,
    status: oneOf(MESSAGE_STATUSES),
    to_phone: { ...nullable(str), description: 'Null for a send to a user id whose phone is not known' },
    to_user_id: {
      ...nullable(str),
      description: "The customer's business-scoped user id for a send by user id",
    },
    message_type: oneOf(MESSAGE_LOG_TYPES),
    provider_message_id: nullable(str),
    sent_at: nullable(instant),
    delivered_at: nullable(instant),
    read_at: nullable(instant),
    failed_at: nullable(instant),
    scheduled_at: nullable(instant),
    cost_amount: { type: 'number' },
    cost_currency: str,
    error_message: nullable(str),
    error_code: nullable(int),
    held: { type: 'boolean' },
    played_at: nullable(instant),
    pricing: nullable(object({ model: nullable(str), type: nullable(str), category: nullable(str) })),
    created_at: instant,
    retry_count: int,
    retry_of_message_log_id: nullable(int),
    retried_by_message_log_id: nullable(int),
    campaign_id: nullable(ulid),
    channel_account_id: ulid,
    from_phone: {
      ...nullable(str),
      description: "The sending account's display number; null when the account is no longer known",
    },
    content: ref('MessageContent'),
  }),
  MessageContent: {
    description:
      'What was sent: a text, a template (its name, language and components as sent: header parameters with ' +
      "their media, body parameters, buttons, in the upstream's format) or a conversation flow's interactive message",
    oneOf: [
      object({ type: oneOf(['text']), text: str }),
      object({
        type: oneOf(['template']),
        name: str,
        language: str,
        components: {
          type: 'array',
          items: { type: 'object', required: ['type'], properties: { type: str } },
        },
      }),
      object({ type: oneOf(['interactive']), interactive: { type: 'object' } }),
    ],
  },
  MessageList: object({
    messages: { type: 'array', items: ref('MessageLog') },
    pagination: ref('Pagination'),
  }),
  Template: object({
    id: ulid,
    channel_account_id: ulid,
    name: str,
    language: str,
    status: oneOf(TEMPLATE_STATUSES),
    category: oneOf(TEMPLATE_CATEGORIES),
    header_format: nullable(oneOf(TEMPLATE_HEADER_FORMATS)),
    header_sample_media_url: nullable(str),
    components: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: str } } },
    flag: TEMPLATE_FLAG,
    rejected_reason: {
      ...nullable(str),
      description: "The upstream's reason while REJECTED (e.g. INVALID_FORMAT)",
    },
  }),
  TemplateList: object({ templates: { type: 'array', items: ref('Template') } }),
  SyncedTemplates: object({
    channel_account_id: ulid,
    templates: { type: 'array', items: ref('Template') },
    webhooks_subscribed: {
      type: 'boolean',
      description: 'Whether the upstream took the webhook subscription',
    },
  }),
  CampaignPart: object({
    campaign_id: ulid,
    name: nullable(str),
    part_number: int,
    status: oneOf(CAMPAIGN_STATUSES),
    requested_count: int,
    scheduled_at: nullable(instant),
  }),
  CampaignCreated: object(
    {
      campaign_id: ulid,
      name: nullable(str),
      status: oneOf(CAMPAIGN_STATUSES),
      message_type: oneOf(['template']),
      requested_count: int,
      total_count: int,
      scheduled_at: nullable(instant),
      created_at: instant,
      campaign_group_id: ulid,
      parts_total: int,
      parts: { type: 'array', items: ref('CampaignPart') },
    },
    ['campaign_group_id', 'parts_total', 'parts'],
  ),
  Campaign: object(campaignFields()),
  StatusCounts: object(Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, int]))),
  StatsBucket: object({ start: instant, counts: ref('StatusCounts') }),
  MessageStats: object({
    generated_at: instant,
    hourly: { type: 'array', items: ref('StatsBucket') },
    daily: { type: 'array', items: ref('StatsBucket') },
    totals_24h: ref('StatusCounts'),
    totals_30d: ref('StatusCounts'),
    delivery_rate: nullable({ type: 'number' }),
    read_rate: nullable({ type: 'number' }),
    failures_by_error: { type: 'array', items: object({ error: str, count: int }) },
    cost_currency: { ...str, description: "The rate card's currency, in which the costs are given" },
    cost_daily: {
      type: 'array',
      description: 'What the messages priced on each of the last 30 days (UTC) cost, oldest first',
      items: object({
        start: instant,
        total: { type: 'number' },
        by_category: { type: 'object', additionalProperties: { type: 'number' } },
      }),
    },
    cost_30d: { type: 'number' },
  }),
  CampaignList: object({
    campaigns: { type: 'array', items: ref('Campaign') },
    pagination: ref('Pagination'),
  }),
  CampaignRetry: object({ ...campaignFields(), retried_count: int }),
  CampaignPlan: object({
    dry_run: { const: true },
    requested_count: int,
    capacity: object({ daily_limit: nullable(int), used_today: int, remaining: nullable(int) }),
    split: { type: 'boolean' },
    parts: {
      type: 'array',
      items: object({ part_number: int, requested_count: int, planned_at: nullable(instant) }),
    },
    throughput_per_second: int,
    estimated_finish_at: instant,
    opted_out_count: int,
    estimated_cost: {
      type: 'number',
      description:
        "What the deliverable recipients (no duplicates, invalid rows or opt-outs) would cost: the rate card's " +
        "price for the template's category in each one's market, to 4 decimals",
    },
    cost_currency: { ...str, description: "The rate card's currency" },
  }),
  CampaignCancelled: object({ success: { const: true }, campaign_id: ulid, status: { const: 'cancelled' } }),
  CampaignRecipientList: object({
    campaign_id: ulid,
    recipients: {
      type: 'array',
      items: object(
        {
          phone: { ...nullable(str), description: 'Null for a recipient given by user_id' },
          user_id: {
            ...str,
            description: "Only on a recipient given by user id: the recipient's business-scoped user id",
          },
          name: nullable(str),
          status: oneOf(RECIPIENT_STATUSES),
          message_log_id: nullable({ type: 'string', pattern: '^\\d+$' }),
          error_message: nullable(str),
          sent_at: nullable(instant),
        },
        ['user_id'],
      ),
    },
    pagination: ref('Pagination'),
  }),
  OptOut: object(
    {
      phone: { ...nullable(str), description: 'Null for an entry that names the customer by user id' },
      user_id: {
        ...str,
        description: "Only on an entry that names the customer by user id: the customer's user id",
      },
      source: oneOf(OPT_OUT_SOURCES),
      created_at: instant,
    },
    ['user_id'],
  ),
  OptOutList: object({ opt_outs: { type: 'array', items: ref('OptOut') }, pagination: ref('Pagination') }),
  OptOutDeleted: object({ phone: nullable(str), user_id: str, deleted: { const: true } }, ['user_id']),
  WebhookSettings: object({
    url: nullable(str),
    events: nullable({ type: 'array', items: oneOf(WEBHOOK_EVENTS) }),
    secret_set: { type: 'boolean' },
  }),
  WebhookSecret: object({ secret: { type: 'string', pattern: '^whsec_' } }),
  WebhookEndpoint: object(WEBHOOK_ENDPOINT_FIELDS),
  WebhookEndpointCreated: object({
    ...WEBHOOK_ENDPOINT_FIELDS,
    secret: { type: 'string', pattern: '^whsec_', description: 'The signing secret, shown this once' },
  }),
  WebhookEndpointList: object({
    endpoints: { type: 'array', items: ref('WebhookEndpoint') },
    max_endpoints: { ...int, description: 'The most endpoints a tenant may have' },
  }),
  WebhookEndpointDeleted: object({ endpoint_id: ulid, deleted: { const: true } }),
  WebhookTest: object({ delivery_id: str }),
  WebhookRedelivery: object({ delivery_id: str, event_id: str }),
  WebhookDeliveryList: object({
    deliveries: {
      type: 'array',
      items: object({
        delivery_id: str,
        event_id: { type: 'string', pattern: '^evt_[0-9A-HJKMNP-TV-Z]{26}$' },
        event: oneOf(WEBHOOK_EVENTS),
        status: oneOf(WEBHOOK_DELIVERY_STATUSES),
        created_at: instant,
        endpoint_id: nullable({
          ...ulid,
          description: 'The endpoint it goes to (it may have been removed since)',
        }),
        url: nullable({ type: 'string', description: 'Where it was last sent, or else where it goes now' }),
        payload: {
          type: 'object',
          additionalProperties: true,
          description: "The event's body as sent (its fields per event: see the webhook events)",
        },
        message_id: nullable({
          type: 'integer',
          description: 'The message log the event is about (`message.status_updated`), else null',
        }),
        campaign_id: nullable({
          type: 'string',
          description:
            "The campaign the event is about (`campaign.*`, a campaign's message status), else null",
        }),
        attempts: {
          type: 'array',
          description:
            'Finished attempts, oldest first. An attempt still in flight is not listed until it ends: until ' +
            'then the delivery stays `pending`, and the attempt then appears last with its outcome',
          items: object({
            attempt: int,
            at: { ...instant, description: 'When the attempt started (UTC, toISOString() form)' },
            duration_ms: nullable({
              type: 'integer',
              minimum: 0,
              description:
                'Milliseconds from the start of the attempt to its answer or its failure, on every finished ' +
                'attempt, answered or not: one cut by the 10-second timeout shows about 10000, with its ' +
                '`error`; a refusal before any request (no URL set, address blocked) shows 0. Null only on a ' +
                'failed attempt logged before failures kept their duration',
            }),
            http_status: nullable(int),
            error: nullable(str),
            response_excerpt: nullable({ type: 'string', description: "The start of the receiver's answer" }),
          }),
        },
      }),
    },
    pagination: ref('Pagination'),
    endpoint: object({
      url: nullable(str),
      window_hours: int,
      delivered: int,
      failed: int,
      pending: int,
      success_rate: nullable({ type: 'number', minimum: 0, maximum: 1 }),
      last_error: nullable(object({ at: instant, delivery_id: str, http_status: nullable(int), error: str })),
    }),
  }),
  LiveChatRequestNotification: object({
    notification_id: ulid,
    type: oneOf(['live_chat_request']),
    channel_account_id: ulid,
    phone_number_id: str,
    customer_phone: {
      type: ['string', 'null'],
      description: 'Digits with country code; null for a customer known by user id only',
    },
    customer_user_id: {
      type: ['string', 'null'],
      description: "The customer's business-scoped user id, when the upstream gave one",
    },
    customer_name: nullable(str),
    message_id: { type: 'string', description: "The upstream id of the customer's message" },
    text: nullable(str),
    conversation_id: {
      ...nullable(ulid),
      description: "The customer's conversation in the inbox (GET /api/v1/conversations/{id})",
    },
    created_at: instant,
  }),
  TemplateReviewNotification: object({
    notification_id: ulid,
    type: oneOf(['template_review']),
    channel_account_id: ulid,
    template_id: str,
    template_name: str,
    language: str,
    status: oneOf(['APPROVED', 'REJECTED']),
    category: nullable(oneOf(TEMPLATE_CATEGORIES)),
    reason: { ...nullable(str), description: "The upstream's reason for a rejection (e.g. INVALID_FORMAT)" },
    created_at: instant,
  }),
  NotificationList: {
    ...object({
      notifications: {
        type: 'array',
        items: {
          oneOf: [ref('LiveChatRequestNotification'), ref('TemplateReviewNotification')],
          // The mapping names the values `type` takes; without it, generators assume the schema names.
          discriminator: {
            propertyName: 'type',
            mapping: {
              live_chat_request: '#/components/schemas/LiveChatRequestNotification',
              template_review: '#/components/schemas/TemplateReviewNotification',
            },
          },
        },
      },
      pagination: ref('Pagination'),
    }),
    description:
      'Live-chat requests (a customer asks for a person) and template reviews (the upstream approved or ' +
      'rejected a template), newest first',
  },
  Flow: flowSchema(),
  FlowList: object({ flows: { type: 'array', items: ref('Flow') }, pagination: ref('Pagination') }),
  FlowSession: object({
    session_id: ulid,
    flow_id: ulid,
    flow_version: int,
    channel_account_id: ulid,
    phone: str,
    status: oneOf(FLOW_SESSION_STATUSES),
    current_step: nullable(str),
    variables: { type: 'object', additionalProperties: str },
    started_at: instant,
    expires_at: nullable(instant),
    ended_at: nullable(instant),
  }),
  FlowSessionList: object({
    sessions: { type: 'array', items: ref('FlowSession') },
    pagination: ref('Pagination'),
  }),
  Conversation: object({
    id: ulid,
    channel_account_id: ulid,
    customer: object({
      phone: {
        ...nullable(str),
        description: 'Digits, country code first; null for a customer known by user id only',
      },
      user_id: { ...nullable(str), description: 'The business-scoped user id, as the upstream wrote it' },
      name: nullable(str),
      username: nullable(str),
    }),
    status: oneOf(CONVERSATION_STATUSES),
    assignee: { ...nullable(str), description: "A dashboard user's id, or null" },
    open_until: {
      ...nullable(instant),
      description:
        "When the customer's 24 h service window closes; null while it is closed (only templates go)",
    },
    unread_count: int,
    read_at: nullable(instant),
    last_activity_at: { ...instant, description: 'The latest customer message or reply from the inbox' },
    last_message_text: nullable(str),
    created_at: instant,
  }),
  ConversationList: object({
    conversations: { type: 'array', items: ref('Conversation') },
    pagination: ref('Pagination'),
  }),
  ConversationMessage: object({
    direction: oneOf(MESSAGE_DIRECTIONS),
    provider_message_id: nullable(str),
    message_log_id: {
      ...nullable(int),
      description: 'Outbound only: the message log (GET /api/v1/messages/{id})',
    },
    type: { ...str, description: "The upstream's message type (text, image, location, interactive, ...)" },
    status: { ...nullable(oneOf(MESSAGE_STATUSES)), description: "Outbound only: the message log's status" },
    template: nullable(object({ name: str, language: str })),
    error_message: nullable(str),
    created_at: instant,
    text: {
      ...nullable(str),
      description: 'The text, a media caption, or the title of a button or list reply',
    },
    media: nullable(
      object({
        id: nullable(str),
        url: nullable(str),
        mime_type: nullable(str),
        caption: nullable(str),
        filename: nullable(str),
        sha256: nullable(str),
      }),
    ),
    location: nullable(
      object({
        latitude: nullable({ type: 'number' }),
        longitude: nullable({ type: 'number' }),
        name: nullable(str),
        address: nullable(str),
        url: nullable(str),
      }),
    ),
    contacts: nullable({ type: 'array', items: { type: 'object' } }),
    reaction: nullable(object({ message_id: nullable(str), emoji: nullable(str) })),
    reply: {
      ...nullable(object({ type: str, id: nullable(str), title: nullable(str), payload: nullable(str) })),
      description: "A quick-reply button's or an interactive message's answer",
    },
    context_message_id: { ...nullable(str), description: 'The upstream message this one answers' },
    raw: {
      ...nullable({ type: 'object' }),
      description: "The upstream's message object, for a type not modelled by the fields above",
    },
  }),
  ConversationMessages: object({
    messages: { type: 'array', items: ref('ConversationMessage'), description: 'Oldest first' },
    next_before: {
      ...nullable(str),
      description: 'Pass as `before` for the page of older messages; null when there is none',
    },
  }),
  InboxMessageEvent: object({
    conversation_id: ulid,
    message: {
      ...ref('ConversationMessage'),
      description:
        "A customer's new message, a new message of ours to the customer (a reply, or any send from the account), " +
        'or a new status of one of ours (the same message_log_id again)',
    },
  }),
  InboxConversationEvent: object({
    conversation: {
      ...ref('Conversation'),
      description:
        'The conversation as it is now: created, or its status, assignee, read state or activity changed',
    },
  }),
  ConversationRead: object({
    conversation: ref('Conversation'),
    receipt: nullable(
      object({
        message_id: str,
        sent: { type: 'boolean', description: 'Whether the upstream took the read receipt' },
        error: nullable(str),
      }),
    ),
  }),
  MediaUploaded: object({
    media_id: {
      type: 'string',
      description: "The upstream's media id, for `{id}` media in sends and headers",
    },
  }),
  HealthReport: object({
    status: oneOf(['healthy', 'degraded']),
    checks: object({ app: { type: 'boolean' }, database: { type: 'boolean' }, cache: { type: 'boolean' } }),
    timestamp: instant,
  }),
  Tenant: object({ tenant_id: int, name: str, plan: str, created_at: instant }),
  ApiKeyIssued: object(
    {
      key_id: ulid,
      api_key: { type: 'string', pattern: '^bm_live_', description: 'Shown this once' },
      tenant_id: int,
      created_at: instant,
      name: nullable(str),
      role: { ...nullable(oneOf(ROLES)), description: 'null: full tenant access' },
    },
    ['name', 'role'],
  ),
  ApiKeyRevoked: object({ key_id: ulid, revoked: { const: true } }),
  DeadLetterQueue: object({ queue: str, service: str, dead_letters: int }),
  DeadLetterQueueList: object({ queues: { type: 'array', items: ref('DeadLetterQueue') } }),
  DeadLetters: object({
    queue: str,
    service: str,
    dead_letters: int,
    messages: {
      type: 'array',
      items: object({
        message_id: nullable(str),
        routing_key: nullable(str),
        attempts: nullable(int),
        error: nullable(str),
        published_at: nullable(instant),
        replays: int,
        payload: { description: 'The JSON payload, or the raw text when it is not JSON' },
      }),
    },
  }),
  DeadLettersReplayed: object({ queue: str, replayed: int, remaining: int }),
  ApiKeySummary: object({
    key_id: ulid,
    created_at: instant,
    last_used_at: { ...nullable(instant), description: 'To the minute; null when never used' },
    revoked_at: nullable(instant),
    name: nullable(str),
    role: { ...nullable(oneOf(ROLES)), description: 'null: full tenant access' },
  }),
  ApiKeyList: object({ api_keys: { type: 'array', items: ref('ApiKeySummary') } }),
  TeamMember: object({
    user_id: ulid,
    email: str,
    status: { type: 'string', enum: ['active', 'invited'], description: 'invited: no password set yet' },
    role: oneOf(ROLES),
    created_at: instant,
  }),
  TeamInvite: object({
    user_id: ulid,
    email: str,
    role: oneOf(ROLES),
    invite_url: { type: 'string', format: 'uri', description: 'Under /dashboard; single use' },
    invite_expires_at: instant,
  }),
  TeamMemberRemoved: object({ user_id: ulid, removed: { const: true } }),
  AuditLogEntry: object({
    id: ulid,
    actor: {
      oneOf: [
        object({ type: { const: 'user' }, user_id: ulid, email: str }),
        object({ type: { const: 'api_key' }, key_id: ulid }),
      ],
    },
    action: { type: 'string', description: 'The operationId' },
    method: oneOf(['POST', 'PUT', 'PATCH', 'DELETE']),
    path: str,
    target: {
      type: 'object',
      additionalProperties: str,
      description: "The path's ids by the route's parameter names",
    },
    status: int,
    ip: nullable(str),
    request_id: nullable(str),
    created_at: instant,
  }),
  AuditLogList: object({
    entries: { type: 'array', items: ref('AuditLogEntry') },
    pagination: ref('Pagination'),
  }),
  TeamMemberList: object({ users: { type: 'array', items: ref('TeamMember') } }),
  DashboardInvite: object({
    user_id: ulid,
    tenant_id: int,
    email: str,
    invite_url: { type: 'string', format: 'uri', description: 'Under /dashboard; single use' },
    invite_expires_at: instant,
  }),
  DashboardUser: object({ user_id: ulid, tenant_id: int, email: str, role: oneOf(ROLES) }),
  DashboardSession: object({
    user: ref('DashboardUser'),
    csrf_token: { type: 'string', description: 'Send it as X-CSRF-Token on every state-changing request' },
    idle_expires_at: instant,
    absolute_expires_at: instant,
  }),
  DashboardPasswordSet: object({
    user_id: ulid,
    tenant_id: int,
    email: str,
    role: oneOf(ROLES),
    user: ref('DashboardUser'),
    csrf_token: { type: 'string', description: 'Send it as X-CSRF-Token on every state-changing request' },
    idle_expires_at: instant,
    absolute_expires_at: instant,
  }),
  PasswordResetRequested: object({
    accepted: {
      const: true,
      description: 'A link is mailed if the address belongs to a dashboard user; nothing tells which',
    },
  }),
  SignedOut: object({ signed_out: { const: true } }),
  ChannelAccount: {
    ...object({
      channel_account_id: ulid,
      tenant_id: int,
      phone_number_id: upstreamId,
      waba_id: upstreamId,
      business_id: {
        ...upstreamId,
        description: 'The business portfolio; its numbers share one daily limit',
      },
      display_phone_number: {
        type: 'string',
        pattern: '^\\d*$',
        description: 'The digits of the number given',
      },
      tier: oneOf(MESSAGING_TIERS),
      throughput_per_second: int,
      active: { type: 'boolean' },
      created_at: instant,
      templates_synced: {
        type: 'integer',
        minimum: 0,
        description: 'Templates fetched from the upstream and stored',
      },
      webhooks_subscribed: {
        type: 'boolean',
        description: 'Whether the upstream took the webhook subscription; a template sync tries again',
      },
    }),
    description: 'The connected account; the access token never leaves the service',
  },
  ChannelAccountSummary: object({
    channel_account_id: { ...ulid, description: 'The API ID: `channel_account_id` of a send' },
    phone_number_id: upstreamId,
    waba_id: upstreamId,
    business_id: {
      ...upstreamId,
      description: 'The business portfolio; `capacity` is its shared daily limit',
    },
    display_phone_number: { type: 'string', pattern: '^\\d*$' },
    status: oneOf(['active', 'inactive']),
    tier: oneOf(MESSAGING_TIERS),
    quality_event: {
      ...nullable(str),
      description: 'The latest quality event the upstream reported (FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE…)',
    },
    throughput_per_second: int,
    webhooks_subscribed: { type: 'boolean' },
    capacity: object({ daily_limit: nullable(int), used_today: int, remaining: nullable(int) }),
    created_at: instant,
  }),
  ChannelAccountList: object({ channel_accounts: { type: 'array', items: ref('ChannelAccountSummary') } }),
  Received: object({ received: { const: true }, event_id: ulid }),
  InboundEventList: {
    ...object({ events: { type: 'array', items: ref('InboundEvent') }, pagination: ref('Pagination') }),
    description: 'The inbound audit log, newest first',
  },
  InboundEvent: {
    ...object(inboundEventFields()),
    description: 'An inbound delivery as logged: its outcome and the counts of what splitting it did',
  },
  InboundEventDetail: {
    ...object({
      ...inboundEventFields(),
      request_id: nullable(str),
      headers: {
        type: 'object',
        additionalProperties: { anyOf: [str, { type: 'array', items: str }] },
        description: 'The request headers as received, less credentials and the signature',
      },
      raw_body: str,
      items: {
        type: 'array',
        items: object({
          path: str,
          routing_key: oneOf(INBOUND_ROUTING_KEYS),
          dedupe_key: str,
          phone_number_id: nullable(str),
          state: oneOf(INBOUND_ITEM_STATES),
          item_event_id: { ...nullable(ulid), description: 'The event id the item went out with' },
          published_by_event_id: nullable(ulid),
        }),
      },
      skipped: { type: 'array', items: object({ path: str, reason: str }) },
      same_body_event_ids: { type: 'array', items: ulid, description: 'Other deliveries of the same bytes' },
    }),
    description: 'A delivery as received and what became of each item',
  },
};

/** An inbound audit log entry (webhook-ingress's InboundEventDto). */
function inboundEventFields(): Record<string, JsonSchema> {
  return {
    event_id: ulid,
    received_at: instant,
    outcome: oneOf(INBOUND_EVENT_OUTCOMES),
    body_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    body_bytes: int,
    signed_with: oneOf(INBOUND_SIGNING_SECRETS),
    item_count: int,
    published_count: int,
    duplicate_count: int,
    unroutable_count: int,
    skipped_count: int,
    unroutable_phone_number_ids: { type: 'array', items: str },
    attempts: int,
    last_error: nullable(str),
    processed_at: nullable(instant),
  };
}

function campaignFields(): Record<string, JsonSchema> {
  return {
    campaign_id: ulid,
    name: nullable(str),
    status: oneOf(CAMPAIGN_STATUSES),
    message_type: oneOf(['template']),
    total_count: int,
    sent_count: int,
    failed_count: int,
    scheduled_at: nullable(instant),
    created_at: instant,
    failure_reason: nullable(str),
    requested_count: int,
    channel_account_id: ulid,
    template_name: str,
    template_language: nullable(str),
    campaign_group_id: nullable(ulid),
    part_number: nullable(int),
    parts_total: nullable(int),
    estimated_cost: {
      ...nullable({ type: 'number' }),
      description:
        "What its deliverable recipients cost at the rate card's prices, reckoned when its list was prepared; " +
        'null while preparing, and for a campaign prepared before estimates were kept',
    },
    cost_amount: {
      type: 'number',
      description:
        "What its messages cost so far (the sum of their cost_amount), 0 before sending. A campaign's own GET " +
        'gives it at most a few seconds old; the list, and the GET while the messages cannot be read, the ' +
        'figure last read',
    },
    cost_currency: { ...str, description: "The currency of both, the rate card's" },
  };
}

/** A saved flow: the request body's fields as stored, with its id, status and version. */
function flowSchema(): JsonSchema {
  const saved = joiToJsonSchema(saveFlowSchema);
  const properties = saved.properties as Record<string, JsonSchema>;
  return object({
    flow_id: ulid,
    ...properties,
    status: oneOf(FLOW_STATUSES),
    version: int,
    created_at: instant,
    updated_at: instant,
  });
}
