import { paginationOf, type Pagination } from '@bm/contracts';
import type { Notification } from './notification';
import type { IngressDeps } from './ingress-deps';

interface NotificationDtoBase {
  notification_id: string;
  channel_account_id: string;
  created_at: string;
}

/** A customer asks for a person. */
export interface LiveChatRequestDto extends NotificationDtoBase {
  type: 'live_chat_request';
  phone_number_id: string;
  /** The customer's number, digits with country code; null for a customer known by user id only. */
  customer_phone: string | null;
  /** The customer's business-scoped user id, when the upstream gave one. */
  customer_user_id: string | null;
  customer_name: string | null;
  /** The upstream id of the message that raised it. */
  message_id: string;
  text: string | null;
  /** The customer's conversation in the inbox (null for a request raised before the inbox existed). */
  conversation_id: string | null;
}

/** The upstream network approved or rejected one of the account's templates. */
export interface TemplateReviewDto extends NotificationDtoBase {
  type: 'template_review';
  template_id: string;
  template_name: string;
  language: string;
  /** APPROVED or REJECTED. */
  status: string;
  category: string | null;
  /** The upstream's reason for a rejection (e.g. INVALID_FORMAT), or null. */
  reason: string | null;
}

export type NotificationDto = LiveChatRequestDto | TemplateReviewDto;

function toDto(n: Notification): NotificationDto {
  const createdAt = n.createdAt.toISOString();
  if (n.type === 'template_review') {
    return {
      notification_id: n.id,
      type: n.type,
      channel_account_id: n.channelAccountId,
      template_id: n.templateId,
      template_name: n.templateName,
      language: n.language,
      status: n.status,
      category: n.category,
      reason: n.reason,
      created_at: createdAt,
    };
  }
  return {
    notification_id: n.id,
    type: n.type,
    channel_account_id: n.channelAccountId,
    phone_number_id: n.phoneNumberId,
    customer_phone: n.customerPhone,
    customer_user_id: n.customerUserId,
    customer_name: n.customerName,
    message_id: n.messageId,
    text: n.text,
    conversation_id: n.conversationId,
    created_at: createdAt,
  };
}

/** GET /api/v1/notifications: the tenant's notifications, newest first. */
export async function listNotifications(
  deps: IngressDeps,
  tenantId: number,
  query: { page: number; per_page: number },
): Promise<{ notifications: NotificationDto[]; pagination: Pagination }> {
  const { items, total } = await deps.notifications.list(tenantId, query.page, query.per_page);
  return { notifications: items.map(toDto), pagination: paginationOf(total, query.page, query.per_page) };
}
