import { paginationOf, type Pagination } from '@bm/contracts';
import type { IngressDeps } from './ingress-deps';

export interface NotificationDto {
  notification_id: string;
  type: 'live_chat_request';
  channel_account_id: string;
  phone_number_id: string;
  /** The customer's number, digits with country code. */
  customer_phone: string;
  customer_name: string | null;
  /** The upstream id of the message that raised it. */
  message_id: string;
  text: string | null;
  created_at: string;
}

/** GET /api/v1/notifications: the tenant's notifications, newest first. */
export async function listNotifications(
  deps: IngressDeps,
  tenantId: number,
  query: { page: number; per_page: number },
): Promise<{ notifications: NotificationDto[]; pagination: Pagination }> {
  const { items, total } = await deps.notifications.list(tenantId, query.page, query.per_page);
  return {
    notifications: items.map((n) => ({
      notification_id: n.id,
      type: n.type,
      channel_account_id: n.channelAccountId,
      phone_number_id: n.phoneNumberId,
      customer_phone: n.customerPhone,
      customer_name: n.customerName,
      message_id: n.messageId,
      text: n.text,
      created_at: n.createdAt.toISOString(),
    })),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}
