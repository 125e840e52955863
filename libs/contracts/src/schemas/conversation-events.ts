import Joi from 'joi';
import type { ConversationDto, ConversationMessageDto } from './conversations';
import { domainEventBaseKeys, domainEventSchema, type DomainEventBase } from './domain-events';

/*
 * The live-chat inbox's events (CONTRACT.md, "Conversations"): messaging raises them through its outbox with the
 * change, the gateway keeps them per tenant and serves them to the browsers on GET /api/v1/conversations/events.
 * The stream's `data` is the event's payload less the base fields, so the two shapes below are the stream's too.
 */

/** `event: message` on the stream: a new message of a conversation (either direction) or an outbound one's status. */
export interface InboxMessageEventData {
  conversation_id: string;
  message: ConversationMessageDto;
}

/** `event: conversation` on the stream: a conversation created or changed (status, assignee, read, activity). */
export interface InboxConversationEventData {
  conversation: ConversationDto;
}

/** The stream's event names, by routing key. */
export const INBOX_STREAM_EVENTS = {
  'conversation.message': 'message',
  'conversation.changed': 'conversation',
} as const;
export type InboxStreamEventName = (typeof INBOX_STREAM_EVENTS)[keyof typeof INBOX_STREAM_EVENTS];

/** GET /api/v1/conversations/events: the reconnection delay it asks for and the heartbeat comment's period. */
export const INBOX_STREAM = {
  path: '/api/v1/conversations/events',
  retryMs: 2_000,
  heartbeatMs: 15_000,
} as const;

/**
 * A stream event id (`Last-Event-ID`): the id the gateway's per-tenant stream gave the event, `<ms>-<seq>`.
 * Anything else is no position in the stream.
 */
export const INBOX_EVENT_ID = /^\d{1,15}-\d{1,15}$/;

export interface ConversationMessageEvent extends DomainEventBase, InboxMessageEventData {}
export interface ConversationChangedEvent extends DomainEventBase, InboxConversationEventData {}

// Events written by a send or status statement take their id from the database (a UUID), not a ULID.
const baseKeys = { ...domainEventBaseKeys, event_id: Joi.string().max(64).required() };

// The gateway passes the DTOs on as they are; messaging built them, the OpenAPI document describes them.
export const conversationMessageEventSchema = domainEventSchema<ConversationMessageEvent>(
  {
    conversation_id: Joi.string().max(64).required(),
    message: Joi.object({ direction: Joi.string().required() }).unknown(true).required(),
  },
  baseKeys,
);

export const conversationChangedEventSchema = domainEventSchema<ConversationChangedEvent>(
  {
    conversation: Joi.object({ id: Joi.string().max(64).required() })
      .unknown(true)
      .required(),
  },
  baseKeys,
);
