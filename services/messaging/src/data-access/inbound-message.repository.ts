import type { EntityManager } from 'typeorm';
import type { InboundMessageStore, NewInboundMessage } from '../domain/ports/customer.port';

/** Customers' messages, stored once per upstream message id. */
export class InboundMessageRepository implements InboundMessageStore {
  /** Stores a customer's message; false when it was stored before (a redelivered webhook). */
  async insert(tx: EntityManager, m: NewInboundMessage): Promise<boolean> {
    const inserted: unknown[] = await tx.query(
      `INSERT INTO messaging.inbound_messages
       (provider_message_id, tenant_id, channel_account_id, from_phone, from_user_id, username, type, body,
        received_at, arrival_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING 1`,
      [
        m.providerMessageId,
        m.tenantId,
        m.channelAccountId,
        m.fromPhone,
        m.fromUserId,
        m.username,
        m.type,
        JSON.stringify(m.body),
        m.receivedAt,
        m.arrivalId,
      ],
    );
    return inserted.length > 0;
  }
}
