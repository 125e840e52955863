import {
  DOMAIN_EVENTS,
  type SendRequestedCommand,
  type SendRequestedItem,
  type SendsRequestedCommand,
} from '@bm/contracts';
import { newUlid, type OutboxEvent } from '@bm/platform';
import { recipientSendComponents } from '../creating/check-campaign-template';
import type { Campaign } from '../ports/campaigns.port';
import type { Recipient } from '../ports/recipients.port';

/** The send of one recipient's current attempt, or the reason it cannot be sent. */
export function sendOf(campaign: Campaign, recipient: Recipient): SendRequestedItem | { error: string } {
  const checked = recipientSendComponents(campaign, recipient.variables ?? {});
  if ('error' in checked) return checked;
  return {
    campaign_id: campaign.id,
    campaign_recipient_id: recipient.id,
    campaign_recipient_attempt: recipient.attempt,
    channel_account_id: campaign.channelAccountId,
    // A recipient given by user id is sent to by it; their address then holds the user id, not a phone.
    ...(recipient.userId ? { user_id: recipient.userId } : { phone: recipient.phone }),
    template_name: campaign.templateName,
    template_language: campaign.templateLanguage,
    components: checked.components,
  };
}

/**
 * The commands that hand these sends to messaging: `messaging.sends_requested` commands of up to `size` sends each
 * (one outbox row and one broker message for many recipients), or one `messaging.send_requested` per send when
 * `size` is 1. A command published twice changes nothing: messaging keeps one message per recipient attempt.
 */
export function sendCommands(tenantId: number, sends: SendRequestedItem[], size: number): OutboxEvent[] {
  const occurredAt = new Date().toISOString();
  const envelope = () => ({ event_id: newUlid(), tenant_id: tenantId, occurred_at: occurredAt });
  const key = (send: SendRequestedItem) => `${send.campaign_recipient_id}-${send.campaign_recipient_attempt}`;
  if (size === 1) {
    return sends.map((send) => {
      const payload: SendRequestedCommand = { ...envelope(), ...send };
      return { routingKey: DOMAIN_EVENTS.messagingSendRequested, messageId: `send-${key(send)}`, payload };
    });
  }
  const commands: OutboxEvent[] = [];
  for (let start = 0; start < sends.length; start += size) {
    const chunk = sends.slice(start, start + size);
    const payload: SendsRequestedCommand = { ...envelope(), sends: chunk };
    commands.push({
      routingKey: DOMAIN_EVENTS.messagingSendsRequested,
      messageId: `sends-${key(chunk[0])}-${chunk.length}`,
      payload,
    });
  }
  return commands;
}
