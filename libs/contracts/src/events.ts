import type { CampaignStatus } from './schemas/campaigns';
import type { TemplateCategory, TemplateFlagDto, TemplateStatus } from './schemas/templates';

/** The outbound webhook events of the published API, in its order. */
export const WEBHOOK_EVENTS = [
  'message.status_updated',
  'message.received',
  'campaign.created',
  'campaign.started',
  'campaign.completed',
  'template.submitted',
  'template.status_changed',
  'flow.session_started',
  'flow.session_completed',
  'flow.session_cancelled',
  'account.quality_event',
  'webhook.test',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** Headers of an outbound webhook delivery (CONTRACT.md "Signatures"). */
export const WEBHOOK_HEADERS = {
  signature: 'X-Webhook-Signature',
  timestamp: 'X-Webhook-Timestamp',
  id: 'X-Webhook-Id',
} as const;

/** Prefix of a webhook event id (`evt_<ULID>`), the same on every retry and redelivery. */
export const WEBHOOK_EVENT_ID_PREFIX = 'evt_';

/** Webhook `timestamp` and `X-Webhook-Timestamp`: ISO 8601 with offset, `2026-11-22T09:30:00+00:00`. */
export function formatWebhookTimestamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Fields of every webhook body. */
export interface WebhookEventBase<E extends WebhookEventName = WebhookEventName> {
  event: E;
  tenant_id: number;
  timestamp: string;
}

export interface MessageStatusUpdatedFields {
  message_log_id: number;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** Null for a send to a user id whose phone is not known. */
  to_phone: string | null;
  provider_message_id: string | null;
  error_message: string | null;
  campaign_id: string | null;
}

/** Media of an inbound message; download with the upstream media id. */
export interface InboundMedia {
  id: string;
  mime_type: string;
  sha256?: string;
  caption?: string;
  filename?: string;
}

export interface MessageReceivedFields {
  channel_account_id: string;
  /** Sender digits with country code; null for a customer the upstream names by user id only (a username). */
  from: string | null;
  /** The customer's business-scoped user id (BSUID), exactly as the upstream wrote it; null when it gave none. */
  from_user_id: string | null;
  /** The customer's username, display data only (never an address); null when they have none. */
  username: string | null;
  /** Sender profile name, when the upstream gives one. */
  name: string | null;
  /** The upstream message id. */
  message_id: string;
  /** Upstream message type: text, image, video, document, audio, interactive, button, … */
  type: string;
  /** Text body, caption, button text or reply title; null when the type has none. */
  text: string | null;
  media: InboundMedia | null;
}

export interface CampaignEventFields {
  campaign_id: string;
  name: string | null;
  status: CampaignStatus;
  total_count: number;
  sent_count: number;
  failed_count: number;
}

export interface TemplateEventFields {
  name: string;
  language: string;
  status: TemplateStatus;
  category: TemplateCategory | null;
  /** Upstream reason of a rejection, pause or flag; null otherwise. */
  reason: string | null;
  /** The template's quality flag after the change (a FLAGGED template stays APPROVED); null when not flagged. */
  flag: TemplateFlagDto | null;
}

export interface AccountQualityEventFields {
  channel_account_id: string;
  /** Upstream change field: phone_number_quality_update, account_update, account_alerts, … */
  kind: string;
  details: Record<string, unknown>;
}

export interface FlowSessionFields {
  flow_id: string;
  session_id: string;
  phone: string;
  variables: Record<string, unknown>;
}

export interface WebhookTestFields {
  message: string;
}

/** Event-specific fields per event (CONTRACT.md "Event bodies"). */
export interface WebhookEventFields {
  'message.status_updated': MessageStatusUpdatedFields;
  'message.received': MessageReceivedFields;
  'campaign.created': CampaignEventFields;
  'campaign.started': CampaignEventFields;
  'campaign.completed': CampaignEventFields;
  'template.submitted': TemplateEventFields;
  'template.status_changed': TemplateEventFields;
  'flow.session_started': FlowSessionFields;
  'flow.session_completed': FlowSessionFields;
  'flow.session_cancelled': FlowSessionFields;
  'account.quality_event': AccountQualityEventFields;
  'webhook.test': WebhookTestFields;
}

/** The JSON body POSTed to the client for event E; a union over all events when E is not given. */
export type WebhookEventBody<E extends WebhookEventName = WebhookEventName> = E extends WebhookEventName
  ? WebhookEventBase<E> & WebhookEventFields[E]
  : never;

/** Routing keys of the events and commands services exchange over RabbitMQ. */
export const DOMAIN_EVENTS = {
  messageStatusUpdated: 'message.status_updated',
  // The status events of no campaign recipient that one status batch made, in one message (MessageStatusesBatch).
  // Rollout: webhook-dispatcher (which binds it) before messaging (which publishes it).
  messageStatusesUpdated: 'message.statuses_updated',
  messageReceived: 'message.received',
  campaignCreated: 'campaign.created',
  campaignStarted: 'campaign.started',
  campaignCompleted: 'campaign.completed',
  templateSubmitted: 'template.submitted',
  templateStatusChanged: 'template.status_changed',
  accountQualityEvent: 'account.quality_event',
  flowSessionStarted: 'flow.session_started',
  flowSessionCompleted: 'flow.session_completed',
  flowSessionCancelled: 'flow.session_cancelled',
  optOutChanged: 'opt_out.changed',
  // A customer needs a person (no automation answered, or a flow handed off); webhook-ingress keeps it.
  liveChatRequested: 'live_chat.requested',
  // A customer stopped or resumed marketing (the upstream's 131050, or a user_preferences webhook): the
  // campaign service keeps it as an opt-out (source marketing_stop).
  marketingPreference: 'customer.marketing_preference',
  // A customer changed number or user id (a system message): the campaign service moves their opt-out.
  customerAddressChanged: 'customer.address_changed',
  // The live-chat inbox: a conversation's new message or an outbound one's new status, and a conversation created
  // or changed. The gateway keeps them for the browsers' event streams.
  conversationMessage: 'conversation.message',
  conversationChanged: 'conversation.changed',
  // Items webhook-ingress publishes after verifying and storing an upstream POST, one per status/message/change.
  inboundStatus: 'inbound.status',
  // The status items of webhooks received together, in one message (InboundStatusesBatch). Rollout: messaging
  // (which binds it) before webhook-ingress (which publishes it).
  inboundStatuses: 'inbound.statuses',
  inboundMessage: 'inbound.message',
  inboundTemplateStatus: 'inbound.template_status',
  inboundPhoneQuality: 'inbound.phone_quality',
  inboundAccountUpdate: 'inbound.account_update',
  // Commands: one consumer is expected to act on them.
  messagingSendRequested: 'messaging.send_requested',
  // Many recipients' sends in one command (a campaign step's batch): each item is checked and applied on its own.
  messagingSendsRequested: 'messaging.sends_requested',
} as const;
export type DomainEventKey = (typeof DOMAIN_EVENTS)[keyof typeof DOMAIN_EVENTS];

/**
 * The routing key of a status event of a message that names no campaign recipient (a single send, a reply, a
 * flow's message). Campaign's queue binds only `message.status_updated`, so it receives only its own
 * recipients' status events; a consumer of every status event binds both keys (webhook-dispatcher does).
 *
 * Rollout: webhook-dispatcher (which binds both) before messaging (which publishes this key). Campaign needs no
 * change, and a messaging replica still on the old code publishes every status event as `message.status_updated`,
 * which both consumers still take.
 */
export const DIRECT_STATUS_ROUTING_KEY = 'message.status_updated.direct';

/** The routing key an event is published under: its name, or DIRECT_STATUS_ROUTING_KEY for a status event of no campaign recipient. */
export function routingKeyOf(event: DomainEventKey, payload: { campaign_recipient_id?: unknown }): string {
  const ofCampaign = payload.campaign_recipient_id !== null && payload.campaign_recipient_id !== undefined;
  return event === DOMAIN_EVENTS.messageStatusUpdated && !ofCampaign ? DIRECT_STATUS_ROUTING_KEY : event;
}

/** The event a consumed routing key carries (its name, whichever key it was published under). */
export function domainEventOf(routingKey: string): string {
  return routingKey === DIRECT_STATUS_ROUTING_KEY ? DOMAIN_EVENTS.messageStatusUpdated : routingKey;
}
