import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '@bm/platform';
import type { NewNotification, Notification, NotificationStore } from '../domain/notification';

interface Row {
  id: string;
  tenant_id: number;
  type: NewNotification['type'];
  dedupe_key: string;
  channel_account_id: string;
  phone_number_id: string | null;
  customer_phone: string | null;
  customer_name: string | null;
  message_id: string | null;
  text: string | null;
  details: TemplateReviewDetails | LiveChatDetails | null;
  created_at: Date;
}

/** What a live-chat request keeps in the `details` column: the customer's user id and their conversation. */
interface LiveChatDetails {
  customer_user_id: string | null;
  conversation_id?: string | null;
}

/** What a template review keeps in the `details` column. */
interface TemplateReviewDetails {
  template_id: string;
  template_name: string;
  language: string;
  status: string;
  category: string | null;
  reason: string | null;
}

function toRow(n: NewNotification): Omit<Row, 'created_at'> {
  const base = { id: n.id, tenant_id: n.tenantId, type: n.type, dedupe_key: n.dedupeKey };
  if (n.type === 'live_chat_request') {
    return {
      ...base,
      channel_account_id: n.channelAccountId,
      phone_number_id: n.phoneNumberId,
      customer_phone: n.customerPhone,
      customer_name: n.customerName,
      message_id: n.messageId,
      text: n.text,
      details:
        n.customerUserId === null && n.conversationId === null
          ? null
          : { customer_user_id: n.customerUserId, conversation_id: n.conversationId },
    };
  }
  return {
    ...base,
    channel_account_id: n.channelAccountId,
    phone_number_id: null,
    customer_phone: null,
    customer_name: null,
    message_id: null,
    text: null,
    details: {
      template_id: n.templateId,
      template_name: n.templateName,
      language: n.language,
      status: n.status,
      category: n.category,
      reason: n.reason,
    },
  };
}

function fromRow(r: Row): Notification {
  const base = {
    id: r.id,
    tenantId: r.tenant_id,
    dedupeKey: r.dedupe_key,
    channelAccountId: r.channel_account_id,
    createdAt: r.created_at,
  };
  if (r.type === 'template_review' && r.details && 'template_id' in r.details) {
    return {
      ...base,
      type: 'template_review',
      templateId: r.details.template_id,
      templateName: r.details.template_name,
      language: r.details.language,
      status: r.details.status,
      category: r.details.category,
      reason: r.details.reason,
    };
  }
  return {
    ...base,
    type: 'live_chat_request',
    phoneNumberId: r.phone_number_id ?? '',
    customerPhone: r.customer_phone,
    customerUserId: r.details && 'customer_user_id' in r.details ? r.details.customer_user_id : null,
    conversationId: (r.details && 'customer_user_id' in r.details && r.details.conversation_id) || null,
    customerName: r.customer_name,
    messageId: r.message_id ?? '',
    text: r.text,
  };
}

/** Notifications raised for tenants: live-chat requests and template reviews. */
export class NotificationRepository implements NotificationStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts those whose dedupe key is new, inside the caller's transaction. */
  async insertMany(tx: EntityManager, notifications: NewNotification[]): Promise<void> {
    if (notifications.length === 0) return;
    await tx.query(
      `INSERT INTO ingress.notifications (id, tenant_id, type, dedupe_key, channel_account_id, phone_number_id,
         customer_phone, customer_name, message_id, text, details)
       SELECT id, tenant_id, type, dedupe_key, channel_account_id, phone_number_id, customer_phone,
         customer_name, message_id, text, details
       FROM jsonb_to_recordset($1::jsonb) AS n(id text, tenant_id integer, type text, dedupe_key text,
         channel_account_id text, phone_number_id text, customer_phone text, customer_name text,
         message_id text, text text, details jsonb)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [JSON.stringify(notifications.map(toRow))],
    );
  }

  /** The tenant's notifications, newest first. */
  async list(tenantId: number, page: number, perPage: number) {
    const [{ total }] = await queryRows<{ total: number }>(
      this.dataSource,
      'SELECT count(*)::int AS total FROM ingress.notifications WHERE tenant_id = $1',
      [tenantId],
    );
    const rows = await queryRows<Row>(
      this.dataSource,
      `SELECT * FROM ingress.notifications WHERE tenant_id = $1
       ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [tenantId, perPage, (page - 1) * perPage],
    );
    return { items: rows.map(fromRow), total };
  }
}
