import Joi from 'joi';
import { WEBHOOK_EVENTS, type WebhookEventName } from '../events';
import { paginationQuerySchema, ulidSchema, type Pagination } from './common';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export interface WebhookSettingsRequest {
  /** Null removes the endpoint: no events are sent. */
  url: string | null;
  /** Event names to send; null (the default) sends all. `webhook.test` always goes. */
  events: WebhookEventName[] | null;
}

/**
 * PUT /api/v1/webhooks/settings. PUT replaces the settings, so an omitted `events` means all events.
 * http is accepted beside https so a local receiver works in development and tests; production URLs use https.
 */
export const webhookSettingsSchema = Joi.object<WebhookSettingsRequest>({
  url: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .max(WEBHOOK_URL_MAX_LENGTH)
    .allow(null)
    .required()
    .description('Receiver URL; null removes it'),
  events: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENTS))
    .unique()
    .allow(null)
    .default(null)
    .description('Events to send; null sends all; webhook.test always goes'),
});

/** GET and PUT /api/v1/webhooks/settings answer. */
export interface WebhookSettingsDto {
  url: string | null;
  events: WebhookEventName[] | null;
  secret_set: boolean;
}

/** POST /api/v1/webhooks/settings/secret answer: `whsec_…`, shown this once. */
export interface WebhookSecretDto {
  secret: string;
}

/** POST /api/v1/webhooks/test answer. */
export interface WebhookTestDto {
  delivery_id: string;
}

/** POST /api/v1/webhooks/deliveries/{id}/redeliver answer: the new delivery of the same event. */
export interface WebhookRedeliveryDto {
  delivery_id: string;
  event_id: string;
}

/** pending: not yet delivered, attempts may remain; delivered: a 2xx answer; failed: every attempt failed. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** A finished attempt: one in flight is listed once it ends (its delivery stays `pending` meanwhile). */
export interface WebhookDeliveryAttemptDto {
  attempt: number;
  at: string;
  /**
   * From the attempt's start to its answer or its failure, answered or not: a timeout shows about the timeout
   * (10,000). Null only on a failure logged before failures kept their duration.
   */
  duration_ms: number | null;
  http_status: number | null;
  error: string | null;
  /** The start of the receiver's answer; null when none came. */
  response_excerpt: string | null;
}

export interface WebhookDeliveryDto {
  delivery_id: string;
  /** `evt_<ULID>`, the X-Webhook-Id the receiver sees. */
  event_id: string;
  event: WebhookEventName;
  status: WebhookDeliveryStatus;
  created_at: string;
  attempts: WebhookDeliveryAttemptDto[];
  /** The endpoint it goes to (it may have been removed since); null for a delivery older than endpoint ids. */
  endpoint_id: string | null;
  /** Where it was last sent, or else where it goes now; null when neither is known. */
  url: string | null;
  /** The event's body as sent, the same on every attempt. */
  payload: Record<string, unknown>;
  /** The message log the event is about (`message.status_updated`), else null. */
  message_id: number | null;
  /** The campaign the event is about (`campaign.*`, a campaign's `message.status_updated`), else null. */
  campaign_id: string | null;
}

export interface WebhookDeliveriesQuery {
  status?: WebhookDeliveryStatus;
  event?: WebhookEventName;
  endpoint_id?: string;
  page: number;
  per_page: number;
}

/** GET /api/v1/webhooks/deliveries query. */
export const webhookDeliveriesQuerySchema = Joi.object<WebhookDeliveriesQuery>({
  status: Joi.string().valid(...WEBHOOK_DELIVERY_STATUSES),
  event: Joi.string().valid(...WEBHOOK_EVENTS),
  endpoint_id: ulidSchema.description("Only this endpoint's deliveries (and its health in `endpoint`)"),
  ...paginationQuerySchema,
});

/** The latest failed attempt within the window. */
export interface WebhookEndpointErrorDto {
  at: string;
  delivery_id: string;
  http_status: number | null;
  error: string;
}

/** The endpoint's health over the deliveries created within the last `window_hours`. */
export interface WebhookEndpointHealthDto {
  url: string | null;
  window_hours: number;
  delivered: number;
  failed: number;
  pending: number;
  /** delivered / (delivered + failed); null while none of them is settled. */
  success_rate: number | null;
  last_error: WebhookEndpointErrorDto | null;
}

/** GET /api/v1/webhooks/deliveries answer, newest first. */
export interface WebhookDeliveryListDto {
  deliveries: WebhookDeliveryDto[];
  pagination: Pagination;
  endpoint: WebhookEndpointHealthDto;
}

/** The most endpoints a tenant may have (the default one included). */
export const WEBHOOK_ENDPOINTS_MAX = 10;
export const WEBHOOK_ENDPOINT_DESCRIPTION_MAX_LENGTH = 200;

const endpointUrl = Joi.string()
  .uri({ scheme: ['https', 'http'] })
  .max(WEBHOOK_URL_MAX_LENGTH);
const endpointEvents = Joi.array()
  .items(Joi.string().valid(...WEBHOOK_EVENTS))
  .unique()
  .allow(null)
  .description('Events to send; null or empty sends all; webhook.test always goes');
const endpointDescription = Joi.string()
  .trim()
  .max(WEBHOOK_ENDPOINT_DESCRIPTION_MAX_LENGTH)
  .allow(null, '')
  .description('A note for people, e.g. "billing system"');

export interface CreateWebhookEndpointRequest {
  url: string;
  events: WebhookEventName[] | null;
  description: string | null;
}

/** POST /api/v1/webhooks/endpoints. */
export const createWebhookEndpointSchema = Joi.object<CreateWebhookEndpointRequest>({
  url: endpointUrl.required().description('Receiver URL (https in production)'),
  events: endpointEvents.default(null),
  description: endpointDescription.default(null),
});

export interface UpdateWebhookEndpointRequest {
  url?: string;
  events?: WebhookEventName[] | null;
  description?: string | null;
  enabled?: boolean;
}

/** PATCH /api/v1/webhooks/endpoints/{id}: only the fields given change. */
export const updateWebhookEndpointSchema = Joi.object<UpdateWebhookEndpointRequest>({
  url: endpointUrl.description('Receiver URL (https in production)'),
  events: endpointEvents,
  description: endpointDescription,
  enabled: Joi.boolean().description('A disabled endpoint gets no new deliveries; its pending ones fail'),
}).min(1);

/** One of the tenant's endpoints (its secret never shown but once). */
export interface WebhookEndpointDto {
  endpoint_id: string;
  url: string;
  events: WebhookEventName[] | null;
  description: string | null;
  enabled: boolean;
  /** The tenant's default endpoint: the one of /api/v1/webhooks/settings and of POST /api/v1/webhooks/test. */
  default: boolean;
  secret_set: boolean;
  created_at: string;
  updated_at: string;
}

/** GET /api/v1/webhooks/endpoints answer. */
export interface WebhookEndpointListDto {
  endpoints: WebhookEndpointDto[];
  max_endpoints: number;
}

/** POST /api/v1/webhooks/endpoints answer: the endpoint and its `whsec_` secret, shown this once. */
export interface WebhookEndpointCreatedDto extends WebhookEndpointDto {
  secret: string;
}

/** DELETE /api/v1/webhooks/endpoints/{id} answer. */
export interface WebhookEndpointDeletedDto {
  endpoint_id: string;
  deleted: true;
}
