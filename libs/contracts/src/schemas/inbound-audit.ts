import Joi from 'joi';
import { DOMAIN_EVENTS } from '../events';
import { paginationQuerySchema, type Pagination } from './common';

/*
 * The operators' audit log of webhook-ingress (/admin/v1/inbound-events, through the gateway): every verified
 * upstream POST as stored, and what splitting it into items did. The route, the service's types and the OpenAPI
 * document read the same constants.
 */

/**
 * pending: stored, not split yet; failed: splitting it kept failing for a reason that will not change, so it is
 * no longer tried (reprocess it once the cause is fixed); the others say what splitting it did.
 */
export const INBOUND_EVENT_OUTCOMES = [
  'pending',
  'processed',
  'duplicate',
  'unroutable',
  'ignored',
  'failed',
] as const;
export type InboundEventOutcome = (typeof INBOUND_EVENT_OUTCOMES)[number];

/** The app secret the signature was made with: the current one or, during a rotation, the previous one. */
export const INBOUND_SIGNING_SECRETS = ['current', 'previous'] as const;
export type InboundSigningSecret = (typeof INBOUND_SIGNING_SECRETS)[number];

/** The routing keys of the items ingress publishes. */
export const INBOUND_ROUTING_KEYS = [
  DOMAIN_EVENTS.inboundStatus,
  DOMAIN_EVENTS.inboundMessage,
  DOMAIN_EVENTS.inboundTemplateStatus,
  DOMAIN_EVENTS.inboundPhoneQuality,
  DOMAIN_EVENTS.inboundAccountUpdate,
] as const;
export type InboundRoutingKey = (typeof INBOUND_ROUTING_KEYS)[number];

/**
 * What became of one item: `published` by this delivery, `duplicate` of an earlier one, `skipped` because it could
 * not be published (the reason is in the event's `skipped`), or not sent yet.
 */
export const INBOUND_ITEM_STATES = ['published', 'duplicate', 'unroutable', 'pending', 'skipped'] as const;
export type InboundItemState = (typeof INBOUND_ITEM_STATES)[number];

export interface ListInboundEventsQuery {
  outcome?: InboundEventOutcome;
  page: number;
  per_page: number;
}
/** GET /admin/v1/inbound-events query. */
export const listInboundEventsQuerySchema = Joi.object<ListInboundEventsQuery>({
  outcome: Joi.string().valid(...INBOUND_EVENT_OUTCOMES),
  ...paginationQuerySchema,
});

/** An audit log entry as operators see it (the list's entries and the reprocess answer). */
export interface InboundEventDto {
  event_id: string;
  received_at: string;
  outcome: InboundEventOutcome;
  /** Hex SHA-256 of the raw body: deliveries of the same bytes share it. */
  body_sha256: string;
  body_bytes: number;
  signed_with: InboundSigningSecret;
  item_count: number;
  published_count: number;
  duplicate_count: number;
  unroutable_count: number;
  skipped_count: number;
  unroutable_phone_number_ids: string[];
  attempts: number;
  last_error: string | null;
  processed_at: string | null;
}

/** GET /admin/v1/inbound-events answer, newest first. */
export interface InboundEventListDto {
  events: InboundEventDto[];
  pagination: Pagination;
}

/** One item of the body and what became of it. */
export interface InboundItemView {
  path: string;
  routing_key: InboundRoutingKey;
  dedupe_key: string;
  phone_number_id: string | null;
  state: InboundItemState;
  /** The event id the item went out with (its AMQP messageId). */
  item_event_id: string | null;
  published_by_event_id: string | null;
}

/** A part of the body that could not become an item, or an item that could not be published, and why. */
export interface InboundSkippedPart {
  path: string;
  reason: string;
}

/** GET /admin/v1/inbound-events/{id} answer: the delivery as received and, item by item, what became of it. */
export interface InboundEventDetailDto extends InboundEventDto {
  request_id: string | null;
  /** The request headers as received, less credentials and the signature. */
  headers: Record<string, string | string[]>;
  raw_body: string;
  items: InboundItemView[];
  skipped: InboundSkippedPart[];
  /** Other deliveries of the same bytes (upstream retries). */
  same_body_event_ids: string[];
}
