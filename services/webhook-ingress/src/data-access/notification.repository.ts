import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '@bm/platform';

export interface NewNotification {
  id: string;
  tenantId: number;
  type: 'live_chat_request';
  /** At most one notification per key: the rule that raised it decides how often one may repeat. */
  dedupeKey: string;
  channelAccountId: string;
  phoneNumberId: string;
  customerPhone: string;
  customerName: string | null;
  messageId: string;
  text: string | null;
}

export interface Notification extends NewNotification {
  createdAt: Date;
}

interface Row {
  id: string;
  tenant_id: number;
  type: 'live_chat_request';
  dedupe_key: string;
  channel_account_id: string;
  phone_number_id: string;
  customer_phone: string;
  customer_name: string | null;
  message_id: string;
  text: string | null;
  created_at: Date;
}

/** Notifications raised for tenants (live-chat requests). */
export class NotificationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts those whose dedupe key is new, inside the caller's transaction. */
  async insertMany(tx: EntityManager, notifications: NewNotification[]): Promise<void> {
    if (notifications.length === 0) return;
    const rows = notifications.map((n) => ({
      id: n.id,
      tenant_id: n.tenantId,
      type: n.type,
      dedupe_key: n.dedupeKey,
      channel_account_id: n.channelAccountId,
      phone_number_id: n.phoneNumberId,
      customer_phone: n.customerPhone,
      customer_name: n.customerName,
      message_id: n.messageId,
      text: n.text,
    }));
    await tx.query(
      `INSERT INTO ingress.notifications (id, tenant_id, type, dedupe_key, channel_account_id, phone_number_id,
         customer_phone, customer_name, message_id, text)
       SELECT id, tenant_id, type, dedupe_key, channel_account_id, phone_number_id, customer_phone,
         customer_name, message_id, text
       FROM jsonb_to_recordset($1::jsonb) AS n(id text, tenant_id integer, type text, dedupe_key text,
         channel_account_id text, phone_number_id text, customer_phone text, customer_name text,
         message_id text, text text)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [JSON.stringify(rows)],
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
    const items: Notification[] = rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      type: r.type,
      dedupeKey: r.dedupe_key,
      channelAccountId: r.channel_account_id,
      phoneNumberId: r.phone_number_id,
      customerPhone: r.customer_phone,
      customerName: r.customer_name,
      messageId: r.message_id,
      text: r.text,
      createdAt: r.created_at,
    }));
    return { items, total };
  }
}
