import type Joi from 'joi';
import type { DomainEventKey } from '../events';
import {
  accountQualityEventSchema,
  campaignEventSchema,
  flowSessionEventSchema,
  liveChatRequestedSchema,
  marketingPreferenceSchema,
  customerAddressChangedSchema,
  messageReceivedSchema,
  messageStatusUpdatedSchema,
  messageStatusesBatchSchema,
  optOutChangedSchema,
  sendRequestedSchema,
  sendsRequestedSchema,
  templateEventSchema,
  type AccountQualityEvent,
  type CampaignEvent,
  type FlowSessionEvent,
  type LiveChatRequestedEvent,
  type MarketingPreferenceEvent,
  type CustomerAddressChangedEvent,
  type MessageReceivedEvent,
  type MessageStatusUpdatedEvent,
  type MessageStatusesBatch,
  type OptOutChangedEvent,
  type SendRequestedCommand,
  type SendsRequestedCommand,
  type TemplateEvent,
} from './domain-events';
import {
  inboundAccountUpdateSchema,
  inboundMessageSchema,
  inboundPhoneQualitySchema,
  inboundStatusSchema,
  inboundStatusesSchema,
  inboundTemplateStatusSchema,
  type InboundAccountUpdateItem,
  type InboundMessageItem,
  type InboundPhoneQualityItem,
  type InboundStatusItem,
  type InboundStatusesBatch,
  type InboundTemplateStatusItem,
} from './inbound-events';
import {
  conversationChangedEventSchema,
  conversationMessageEventSchema,
  type ConversationChangedEvent,
  type ConversationMessageEvent,
} from './conversation-events';

/** The payload type of each routing key. */
export interface DomainEventPayloads {
  'message.status_updated': MessageStatusUpdatedEvent;
  'message.statuses_updated': MessageStatusesBatch;
  'message.received': MessageReceivedEvent;
  'campaign.created': CampaignEvent;
  'campaign.started': CampaignEvent;
  'campaign.completed': CampaignEvent;
  'template.submitted': TemplateEvent;
  'template.status_changed': TemplateEvent;
  'account.quality_event': AccountQualityEvent;
  'flow.session_started': FlowSessionEvent;
  'flow.session_completed': FlowSessionEvent;
  'flow.session_cancelled': FlowSessionEvent;
  'opt_out.changed': OptOutChangedEvent;
  'live_chat.requested': LiveChatRequestedEvent;
  'customer.marketing_preference': MarketingPreferenceEvent;
  'customer.address_changed': CustomerAddressChangedEvent;
  'conversation.message': ConversationMessageEvent;
  'conversation.changed': ConversationChangedEvent;
  'inbound.status': InboundStatusItem;
  'inbound.statuses': InboundStatusesBatch;
  'inbound.message': InboundMessageItem;
  'inbound.template_status': InboundTemplateStatusItem;
  'inbound.phone_quality': InboundPhoneQualityItem;
  'inbound.account_update': InboundAccountUpdateItem;
  'messaging.send_requested': SendRequestedCommand;
  'messaging.sends_requested': SendsRequestedCommand;
}

/** The consumer schema of each routing key: `validate(DOMAIN_EVENT_SCHEMAS[key], payload)`. */
export const DOMAIN_EVENT_SCHEMAS: { [K in DomainEventKey]: Joi.ObjectSchema<DomainEventPayloads[K]> } = {
  'message.status_updated': messageStatusUpdatedSchema,
  'message.statuses_updated': messageStatusesBatchSchema,
  'message.received': messageReceivedSchema,
  'campaign.created': campaignEventSchema,
  'campaign.started': campaignEventSchema,
  'campaign.completed': campaignEventSchema,
  'template.submitted': templateEventSchema,
  'template.status_changed': templateEventSchema,
  'account.quality_event': accountQualityEventSchema,
  'flow.session_started': flowSessionEventSchema,
  'flow.session_completed': flowSessionEventSchema,
  'flow.session_cancelled': flowSessionEventSchema,
  'opt_out.changed': optOutChangedSchema,
  'live_chat.requested': liveChatRequestedSchema,
  'customer.marketing_preference': marketingPreferenceSchema,
  'customer.address_changed': customerAddressChangedSchema,
  'conversation.message': conversationMessageEventSchema,
  'conversation.changed': conversationChangedEventSchema,
  'inbound.status': inboundStatusSchema,
  'inbound.statuses': inboundStatusesSchema,
  'inbound.message': inboundMessageSchema,
  'inbound.template_status': inboundTemplateStatusSchema,
  'inbound.phone_quality': inboundPhoneQualitySchema,
  'inbound.account_update': inboundAccountUpdateSchema,
  'messaging.send_requested': sendRequestedSchema,
  'messaging.sends_requested': sendsRequestedSchema,
};
