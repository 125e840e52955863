import type { LiveChatRequestedEvent } from '@bm/contracts';
import { newUlid } from '@bm/platform';
import type { IngressDeps } from './ingress-deps';

/**
 * Keeps a live-chat request messaging raised (a message no automation answered, or a flow's hand-off) as the
 * tenant's notification; its dedupe key makes a redelivered event change nothing.
 */
export async function recordLiveChatRequest(deps: IngressDeps, event: LiveChatRequestedEvent): Promise<void> {
  await deps.dataSource.transaction((tx) =>
    deps.notifications.insertMany(tx, [
      {
        id: newUlid(),
        tenantId: event.tenant_id,
        type: 'live_chat_request',
        dedupeKey: event.dedupe_key,
        channelAccountId: event.channel_account_id,
        phoneNumberId: event.phone_number_id,
        customerPhone: event.customer_phone,
        customerName: event.customer_name,
        messageId: event.message_id,
        text: event.text,
      },
    ]),
  );
}
