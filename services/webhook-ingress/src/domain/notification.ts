import type { Tx } from './ingress-ports';

/* What webhook-ingress raises for tenants: live-chat requests and template reviews. */

interface NotificationBase {
  id: string;
  tenantId: number;
  /** At most one notification per key: the rule that raised it decides how often one may repeat. */
  dedupeKey: string;
  channelAccountId: string;
}

/** A customer asks for a person: no automation answered, or a flow handed the conversation off. */
export interface LiveChatRequest extends NotificationBase {
  type: 'live_chat_request';
  phoneNumberId: string;
  /** Null for a customer the upstream names by user id only. */
  customerPhone: string | null;
  customerUserId: string | null;
  customerName: string | null;
  messageId: string;
  text: string | null;
  /** The customer's conversation in the inbox; null when raised before the inbox kept conversations. */
  conversationId: string | null;
}

/** The upstream network's review of one of the account's templates: approved or rejected. */
export interface TemplateReview extends NotificationBase {
  type: 'template_review';
  templateId: string;
  templateName: string;
  language: string;
  status: string;
  category: string | null;
  reason: string | null;
}

export type NewNotification = LiveChatRequest | TemplateReview;
export type Notification = NewNotification & { createdAt: Date };

/** Notifications raised for tenants. */
export interface NotificationStore {
  insertMany(tx: Tx, notifications: NewNotification[]): Promise<void>;
  list(tenantId: number, page: number, perPage: number): Promise<{ items: Notification[]; total: number }>;
}
