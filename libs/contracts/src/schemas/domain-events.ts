import Joi from 'joi';
import type {
  AccountQualityEventFields,
  CampaignEventFields,
  TemplateEventFields,
  FlowSessionFields,
  InboundMedia,
  MessageReceivedFields,
} from '../events';
import { CAMPAIGN_STATUSES } from './campaigns';
import { ulidSchema } from './common';
import { namesTheCustomer, userIdSchema } from './customer-address';
import { MESSAGE_STATUSES, type MessageStatus } from './message-logs';
import { sendComponentsSchema, type SendComponent } from './send-components';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from './templates';

/*
 * Payloads of the events and commands between services. Consumers validate them with these schemas, which
 * accept unknown keys on purpose: a producer may add a field before every consumer knows it (tolerant reader).
 */

/** Fields of every domain event. */
export interface DomainEventBase {
  /** ULID; also the AMQP messageId, so a redelivered event is recognized and the webhook event id derives from it. */
  event_id: string;
  tenant_id: number;
  /** When it happened, ISO 8601 UTC. */
  occurred_at: string;
}

// The instants our services write (`toISOString()`, or with an offset). Checked by shape and by Date: joi's
// isoDate() took several microseconds per event (a general ISO 8601 parser and a conversion), on every event
// every consumer validates.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
export const isoInstantSchema = Joi.string()
  .pattern(ISO_INSTANT, 'ISO 8601 instant')
  .custom((value: string, helpers) =>
    Number.isNaN(Date.parse(value))
      ? helpers.error('string.pattern.name', { name: 'ISO 8601 instant' })
      : value,
  )
  .description('ISO 8601 instant');
export const tenantIdSchema = Joi.number().integer().min(1);

export const domainEventBaseKeys = {
  event_id: ulidSchema.required(),
  tenant_id: tenantIdSchema.required(),
  occurred_at: isoInstantSchema.required(),
};

const nullableString = Joi.string().allow(null).required();
const count = Joi.number().integer().min(0).required();

/** Builds a consumer schema: the base fields, the given ones, unknown keys allowed. */
export function domainEventSchema<T>(
  keys: Joi.PartialSchemaMap<T>,
  base = domainEventBaseKeys,
): Joi.ObjectSchema<T> {
  return Joi.object<T>({ ...base, ...keys }).unknown(true);
}

export interface MessageStatusUpdatedEvent extends DomainEventBase {
  message_log_id: number;
  channel_account_id: string;
  status: MessageStatus;
  previous_status: MessageStatus | null;
  to_phone: string | null;
  provider_message_id: string | null;
  /** Upstream error code of a failure (e.g. 131049), null otherwise. */
  error_code: number | null;
  error_message: string | null;
  campaign_id: string | null;
  /** Set when the send came from `messaging.send_requested`, so the campaign finds its recipient row. */
  campaign_recipient_id: string | null;
  /**
   * The recipient's attempt the send was for, as the command gave it. Absent from producers that predate it and
   * null for a command without one (then `campaign_recipient_id` is the older "<id>-<attempt>" form).
   */
  campaign_recipient_attempt?: number | null;
}
export const messageStatusUpdatedSchema = domainEventSchema<MessageStatusUpdatedEvent>({
  message_log_id: Joi.number().integer().min(1).required(),
  channel_account_id: Joi.string().required(),
  status: Joi.string()
    .valid(...MESSAGE_STATUSES)
    .required(),
  previous_status: Joi.string()
    .valid(...MESSAGE_STATUSES)
    .allow(null)
    .required(),
  to_phone: Joi.string().allow(null).required(),
  provider_message_id: nullableString,
  error_code: Joi.number().integer().allow(null).required(),
  error_message: nullableString,
  campaign_id: nullableString,
  campaign_recipient_id: nullableString,
  campaign_recipient_attempt: Joi.number().integer().min(0).allow(null),
});

/** One status event of a batch message, with the trace of the send it continues (a header when sent alone). */
export interface StatusEventOfBatch {
  event: MessageStatusUpdatedEvent;
  traceparent: string | null;
}
/**
 * The `message.status_updated` events of no campaign recipient that one status batch (a send's answers, or the
 * receipts applied together) made, in one message (`message.statuses_updated`): one publish and one delivery for
 * all of them. Each event keeps its own event id and is checked with its own schema and recorded on its own; the
 * batch's event id only names the message. Events of several tenants may share a batch.
 */
export interface MessageStatusesBatch {
  event_id: string;
  occurred_at: string;
  events: StatusEventOfBatch[];
}
/** Most status events in one batch message. */
export const MAX_STATUS_EVENTS_PER_BATCH = 500;
export const messageStatusesBatchSchema = Joi.object<MessageStatusesBatch>({
  event_id: ulidSchema.required(),
  occurred_at: isoInstantSchema.required(),
  events: Joi.array()
    .items(
      Joi.object({
        event: Joi.object().unknown(true).required(),
        traceparent: Joi.string().allow(null),
      }).unknown(true),
    )
    .min(1)
    .max(MAX_STATUS_EVENTS_PER_BATCH)
    .required(),
}).unknown(true);

export const inboundMediaSchema = Joi.object<InboundMedia>({
  id: Joi.string().required(),
  mime_type: Joi.string().required(),
  sha256: Joi.string(),
  caption: Joi.string().allow(''),
  filename: Joi.string(),
}).unknown(true);

/**
 * `message.received` between services: the webhook's fields and, for the campaign service's keyword rule, when the
 * customer wrote it and when we received it (CustomerChoiceTime; absent from a producer that predates them).
 */
export type MessageReceivedEvent = DomainEventBase &
  MessageReceivedFields & { written_at?: string; received_at?: string };
export const messageReceivedSchema = domainEventSchema<MessageReceivedEvent>({
  channel_account_id: Joi.string().required(),
  // A customer is addressed by phone or by user id (CONTRACT.md, the network of late 2026): one at least. The
  // 2026 fields are optional so that events of a producer that predates them are still read.
  from: Joi.string().allow(null),
  from_user_id: Joi.string().allow(null),
  username: Joi.string().allow(null),
  name: nullableString,
  message_id: Joi.string().required(),
  type: Joi.string().required(),
  text: nullableString.allow(''),
  media: inboundMediaSchema.allow(null).required(),
  written_at: isoInstantSchema,
  received_at: isoInstantSchema,
}).custom(namesTheCustomer);

export interface CampaignEvent extends DomainEventBase, CampaignEventFields {
  campaign_group_id: string | null;
}
export const campaignEventSchema = domainEventSchema<CampaignEvent>({
  campaign_id: Joi.string().required(),
  name: nullableString,
  status: Joi.string()
    .valid(...CAMPAIGN_STATUSES)
    .required(),
  total_count: count,
  sent_count: count,
  failed_count: count,
  campaign_group_id: nullableString,
});

export interface TemplateEvent extends DomainEventBase, TemplateEventFields {
  channel_account_id: string;
  template_id: string;
}
export const templateEventSchema = domainEventSchema<TemplateEvent>({
  channel_account_id: Joi.string().required(),
  template_id: Joi.string().required(),
  name: Joi.string().required(),
  language: Joi.string().required(),
  status: Joi.string()
    .valid(...TEMPLATE_STATUSES)
    .required(),
  category: Joi.string()
    .valid(...TEMPLATE_CATEGORIES)
    .allow(null)
    .required(),
  reason: nullableString,
  // Events written before flags were kept carry none.
  flag: Joi.object({
    reason: Joi.string().allow(null).required(),
    flagged_at: Joi.string().isoDate().required(),
  })
    .allow(null)
    .default(null),
});

export type AccountQualityEvent = DomainEventBase & AccountQualityEventFields;
export const accountQualityEventSchema = domainEventSchema<AccountQualityEvent>({
  channel_account_id: Joi.string().required(),
  kind: Joi.string().required(),
  details: Joi.object().unknown(true).required(),
});

export type FlowSessionEvent = DomainEventBase & FlowSessionFields;
export const flowSessionEventSchema = domainEventSchema<FlowSessionEvent>({
  flow_id: Joi.string().required(),
  session_id: Joi.string().required(),
  phone: Joi.string().required(),
  variables: Joi.object().unknown(true).required(),
});

/** A phone added to or removed from a tenant's opt-outs; messaging keeps a copy for single MARKETING sends. */
export interface OptOutChangedEvent extends DomainEventBase {
  phone: string;
  opted_out: boolean;
  source: string;
  /**
   * The change's place in the order of the tenant's changes of this phone (higher is newer); a copy keeps the
   * newest. Absent only in events written before versions existed, which are applied as they come.
   */
  version?: number;
}
export const optOutChangedSchema = domainEventSchema<OptOutChangedEvent>({
  // The customer's address: a phone's digits or a user id.
  phone: Joi.alternatives(Joi.string().pattern(/^\d{1,15}$/), userIdSchema).required(),
  opted_out: Joi.boolean().required(),
  source: Joi.string().required(),
  version: Joi.number().integer().min(1),
});

/**
 * A customer stopped or resumed marketing messages from the business (CONTRACT.md, holds, errors and their rules):
 * messaging saw the upstream's 131050 on a send to them, or a `user_preferences` webhook. Applied by the campaign
 * service to the opt-out list.
 */
export interface MarketingPreferenceEvent extends DomainEventBase {
  channel_account_id: string;
  /** The customer's phone; null for one known by user id only. */
  phone: string | null;
  user_id: string | null;
  value: 'stop' | 'resume';
  /** What said so: `error_131050` (a refused send) or `user_preferences` (the upstream's webhook). */
  reason: 'error_131050' | 'user_preferences';
  /** When the customer chose it and when we received it (CustomerChoiceTime); absent from an older producer. */
  chosen_at?: string;
  received_at?: string;
}
export const marketingPreferenceSchema = domainEventSchema<MarketingPreferenceEvent>({
  channel_account_id: Joi.string().required(),
  phone: Joi.string()
    .pattern(/^\d{1,15}$/)
    .allow(null)
    .required(),
  user_id: nullableString,
  value: Joi.string().valid('stop', 'resume').required(),
  reason: Joi.string().valid('error_131050', 'user_preferences').required(),
  chosen_at: isoInstantSchema,
  received_at: isoInstantSchema,
});

/**
 * A customer changed address (a `user_changed_number` or `user_changed_user_id` system message): messaging moved
 * their window; the campaign service moves their opt-out and keeps the link. Addresses are a phone's digits or a
 * user id.
 */
export interface CustomerAddressChangedEvent extends DomainEventBase {
  channel_account_id: string;
  previous: string;
  current: string;
  /** The customer's phone and user id after the move, when the message names both. */
  link: { phone: string; user_id: string } | null;
}
const addressSchema = Joi.alternatives(Joi.string().pattern(/^\d{1,15}$/), userIdSchema);
export const customerAddressChangedSchema = domainEventSchema<CustomerAddressChangedEvent>({
  channel_account_id: Joi.string().required(),
  previous: addressSchema.required(),
  current: addressSchema.required(),
  link: Joi.object({
    phone: Joi.string()
      .pattern(/^\d{1,15}$/)
      .required(),
    user_id: userIdSchema.required(),
  })
    .allow(null)
    .required(),
});

/** Command from the campaign service: send one recipient's template message. */
export interface SendRequestedCommand extends DomainEventBase {
  campaign_id: string;
  campaign_recipient_id: string;
  /**
   * Which send of the recipient this is (0 first, one more per retry). Absent from producers that predate it,
   * whose `campaign_recipient_id` is "<id>-<attempt>" after a retry.
   */
  campaign_recipient_attempt?: number;
  channel_account_id: string;
  /** Normalized digits; absent or null for a recipient named by user id only. */
  phone?: string | null;
  /** The recipient's business-scoped user id, for a recipient given by `user_id` (absent from older producers). */
  user_id?: string | null;
  template_name: string;
  template_language: string;
  components: SendComponent[];
}
export const sendRequestedSchema = domainEventSchema<SendRequestedCommand>({
  campaign_id: Joi.string().required(),
  campaign_recipient_id: Joi.string().required(),
  campaign_recipient_attempt: Joi.number().integer().min(0),
  channel_account_id: Joi.string().required(),
  phone: Joi.string()
    .pattern(/^\d{1,15}$/)
    .allow(null),
  user_id: userIdSchema.allow(null),
  template_name: Joi.string().required(),
  template_language: Joi.string().required(),
  components: sendComponentsSchema.required(),
}).custom((command: SendRequestedCommand, helpers) =>
  command.phone || command.user_id
    ? command
    : helpers.message({ custom: '"phone" or "user_id" must name the recipient' }),
);

/** One recipient's send inside a batch command: a send command without the event fields the batch carries. */
export type SendRequestedItem = Omit<SendRequestedCommand, keyof DomainEventBase>;

/**
 * Command from the campaign service: send these recipients' template messages (a dispatch step's batch, one
 * broker message and one outbox row for many recipients). The envelope is checked as a whole; each item is checked
 * as the `messaging.send_requested` command it stands for (`sendOfBatch`), so one bad item fails alone.
 */
export interface SendsRequestedCommand extends DomainEventBase {
  sends: SendRequestedItem[];
}
/** Most recipients in one batch command. */
export const MAX_SENDS_PER_COMMAND = 1000;
export const sendsRequestedSchema = domainEventSchema<SendsRequestedCommand>({
  sends: Joi.array().items(Joi.object().unknown(true)).min(1).max(MAX_SENDS_PER_COMMAND).required(),
});

/**
 * The `messaging.send_requested` command one item of a batch stands for (to be validated with its schema), with the
 * batch's event fields: a send is known by its recipient and attempt, never by its event id.
 */
export function sendOfBatch(batch: SendsRequestedCommand, index: number): SendRequestedCommand {
  return {
    ...batch.sends[index],
    event_id: batch.event_id,
    tenant_id: batch.tenant_id,
    occurred_at: batch.occurred_at,
  };
}

/** Messaging asks for a person: a message no flow answered, or a flow's hand-off. Kept once per `dedupe_key`. */
export interface LiveChatRequestedEvent extends DomainEventBase {
  channel_account_id: string;
  phone_number_id: string;
  /** The customer's phone; null for a customer the upstream names by user id only. */
  customer_phone: string | null;
  /** The customer's business-scoped user id when the upstream gave one (absent from older producers). */
  customer_user_id?: string | null;
  customer_name: string | null;
  /** The upstream id of the message that raised it. */
  message_id: string;
  text: string | null;
  /** `no_automation` or `flow_handoff`. */
  reason: 'no_automation' | 'flow_handoff';
  /** The flow session that handed off, else null. */
  flow_session_id: string | null;
  /** The customer's conversation in the inbox (absent from older producers). */
  conversation_id?: string | null;
  dedupe_key: string;
}
export const liveChatRequestedSchema = domainEventSchema<LiveChatRequestedEvent>({
  channel_account_id: Joi.string().required(),
  phone_number_id: Joi.string().required(),
  customer_phone: Joi.string().allow(null).required(),
  customer_user_id: Joi.string().allow(null),
  customer_name: nullableString,
  message_id: Joi.string().required(),
  text: nullableString.allow(''),
  reason: Joi.string().valid('no_automation', 'flow_handoff').required(),
  flow_session_id: nullableString,
  // Optional: older producers name no conversation.
  conversation_id: Joi.string().allow(null),
  dedupe_key: Joi.string().max(300).required(),
});
