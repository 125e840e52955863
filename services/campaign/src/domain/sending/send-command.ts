import { DOMAIN_EVENTS, type SendRequestedCommand } from '@bm/contracts';
import { newUlid, type OutboxEvent } from '@bm/platform';
import { recipientSendComponents } from '../creating/check-campaign-template';
import type { Campaign } from '../ports/campaigns.port';
import type { Recipient } from '../ports/recipients.port';

/** The send command of one recipient's current attempt, or the reason it cannot be sent. */
export function sendCommandOf(campaign: Campaign, recipient: Recipient): OutboxEvent | { error: string } {
  const checked = recipientSendComponents(campaign, recipient.variables ?? {});
  if ('error' in checked) return checked;
  const eventId = newUlid();
  const payload: SendRequestedCommand = {
    event_id: eventId,
    tenant_id: campaign.tenantId,
    occurred_at: new Date().toISOString(),
    campaign_id: campaign.id,
    campaign_recipient_id: recipient.id,
    campaign_recipient_attempt: recipient.attempt,
    channel_account_id: campaign.channelAccountId,
    phone: recipient.phone,
    template_name: campaign.templateName,
    template_language: campaign.templateLanguage,
    components: checked.components,
  };
  // The id is stable per recipient attempt: a command published twice is one send (messaging dedupes anyway).
  return {
    routingKey: DOMAIN_EVENTS.messagingSendRequested,
    messageId: `send-${recipient.id}-${recipient.attempt}`,
    payload,
  };
}
