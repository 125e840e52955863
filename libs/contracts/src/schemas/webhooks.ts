import Joi from 'joi';
import { WEBHOOK_EVENTS, type WebhookEventName } from '../events';
import { paginationQuerySchema, type Pagination } from './common';

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
}

export interface WebhookDeliveriesQuery {
  status?: WebhookDeliveryStatus;
  event?: WebhookEventName;
  page: number;
  per_page: number;
}

/** GET /api/v1/webhooks/deliveries query. */
export const webhookDeliveriesQuerySchema = Joi.object<WebhookDeliveriesQuery>({
  status: Joi.string().valid(...WEBHOOK_DELIVERY_STATUSES),
  event: Joi.string().valid(...WEBHOOK_EVENTS),
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
