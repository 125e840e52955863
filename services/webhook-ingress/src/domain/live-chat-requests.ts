import { newUlid } from '@bm/platform';
import type { AccountOwner } from '../data-access/channel-account-lookup';
import type { NewNotification } from '../data-access/notification.repository';
import type { OutgoingItem } from '../data-access/published-item.repository';

const HOUR_MS = 3_600_000;

/**
 * No chatbot flows exist yet, so every customer message on one of our numbers asks for a person: a
 * `live_chat_request` for the number's tenant. At most one per customer and number per clock hour of the
 * message, so a chatty customer does not flood the list and a redelivery or reprocess raises nothing new.
 */
export function liveChatRequests(
  newItems: OutgoingItem[],
  owners: Map<string, AccountOwner | null>,
): NewNotification[] {
  const byKey = new Map<string, NewNotification>();
  for (const { item } of newItems) {
    if (item.routingKey !== 'inbound.message') continue;
    const m = item.payload;
    const owner = m.phone_number_id === null ? null : owners.get(m.phone_number_id);
    if (!owner || m.phone_number_id === null) continue;
    const customer = m.from.replace(/\D/g, '');
    const hour = Math.floor(Date.parse(m.occurred_at) / HOUR_MS);
    const dedupeKey = `live_chat_request:${m.phone_number_id}:${customer}:${hour}`;
    if (byKey.has(dedupeKey)) continue;
    byKey.set(dedupeKey, {
      id: newUlid(),
      tenantId: owner.tenantId,
      type: 'live_chat_request',
      dedupeKey,
      channelAccountId: owner.channelAccountId,
      phoneNumberId: m.phone_number_id,
      customerPhone: customer,
      customerName: m.name,
      messageId: m.message_id,
      text: m.text,
    });
  }
  return [...byKey.values()];
}
