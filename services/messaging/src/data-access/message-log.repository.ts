import { queryRows } from '@bm/platform';
import type { MessageStatus } from '@bm/contracts';
import type { DataSource, EntityManager } from 'typeorm';

/** A message log as the domain sees it. */
export interface MessageLog {
  id: number;
  tenantId: number;
  channelAccountId: string;
  toPhone: string;
  messageType: 'text' | 'template';
  content: MessageContent;
  templateCategory: string | null;
  conversationCategory: string;
  status: MessageStatus;
  providerMessageId: string | null;
  scheduledAt: Date | null;
  sentAt: Date | null;
  costAmount: number;
  costCurrency: string;
  errorCode: number | null;
  errorMessage: string | null;
  autoRetryOnFrequencyCap: boolean;
  retryCount: number;
  retryOfMessageLogId: number | null;
  retriedByMessageLogId: number | null;
  campaignId: string | null;
  campaignRecipientId: string | null;
  sendAttempts: number;
  attemptStartedAt: Date | null;
  createdAt: Date;
}

export type MessageContent =
  | { text: string }
  | { name: string; language: string; components: Array<Record<string, unknown>> };

export interface NewMessageLog {
  tenantId: number;
  channelAccountId: string;
  toPhone: string;
  messageType: 'text' | 'template';
  content: MessageContent;
  templateCategory: string | null;
  conversationCategory: string;
  status: 'queued' | 'scheduled';
  scheduledAt: Date | null;
  autoRetryOnFrequencyCap: boolean;
  retryCount?: number;
  retryOfMessageLogId?: number | null;
  campaignId?: string | null;
  campaignRecipientId?: string | null;
}

interface Row {
  id: string;
  tenant_id: number;
  channel_account_id: string;
  to_phone: string;
  message_type: 'text' | 'template';
  content: MessageContent;
  template_category: string | null;
  conversation_category: string;
  status: MessageStatus;
  provider_message_id: string | null;
  scheduled_at: Date | null;
  sent_at: Date | null;
  cost_amount: string;
  cost_currency: string;
  error_code: number | null;
  error_message: string | null;
  auto_retry_on_frequency_cap: boolean;
  retry_count: number;
  retry_of_message_log_id: string | null;
  retried_by_message_log_id: string | null;
  campaign_id: string | null;
  campaign_recipient_id: string | null;
  send_attempts: number;
  attempt_started_at: Date | null;
  created_at: Date;
}

const num = (v: string | null): number | null => (v === null ? null : Number(v));

/** Maps a row of messaging.message_logs (bigint ids arrive as strings). */
export function toMessageLog(r: Row): MessageLog {
  return {
    id: Number(r.id),
    tenantId: r.tenant_id,
    channelAccountId: r.channel_account_id,
    toPhone: r.to_phone,
    messageType: r.message_type,
    content: r.content,
    templateCategory: r.template_category,
    conversationCategory: r.conversation_category,
    status: r.status,
    providerMessageId: r.provider_message_id,
    scheduledAt: r.scheduled_at,
    sentAt: r.sent_at,
    costAmount: Number(r.cost_amount),
    costCurrency: r.cost_currency,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    autoRetryOnFrequencyCap: r.auto_retry_on_frequency_cap,
    retryCount: r.retry_count,
    retryOfMessageLogId: num(r.retry_of_message_log_id),
    retriedByMessageLogId: num(r.retried_by_message_log_id),
    campaignId: r.campaign_id,
    campaignRecipientId: r.campaign_recipient_id,
    sendAttempts: r.send_attempts,
    attemptStartedAt: r.attempt_started_at,
    createdAt: r.created_at,
  };
}

type Db = DataSource | EntityManager;

export class MessageLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: EntityManager, m: NewMessageLog): Promise<MessageLog> {
    const rows: Row[] = await tx.query(
      `INSERT INTO messaging.message_logs
         (tenant_id, channel_account_id, to_phone, message_type, content, template_category, conversation_category,
          status, scheduled_at, auto_retry_on_frequency_cap, retry_count, retry_of_message_log_id, campaign_id,
          campaign_recipient_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING *`,
      [
        m.tenantId,
        m.channelAccountId,
        m.toPhone,
        m.messageType,
        JSON.stringify(m.content),
        m.templateCategory,
        m.conversationCategory,
        m.status,
        m.scheduledAt,
        m.autoRetryOnFrequencyCap,
        m.retryCount ?? 0,
        m.retryOfMessageLogId ?? null,
        m.campaignId ?? null,
        m.campaignRecipientId ?? null,
      ],
    );
    return toMessageLog(rows[0]);
  }

  async findForTenant(id: number, tenantId: number): Promise<MessageLog | undefined> {
    const rows: Row[] = await this.dataSource.query(
      'SELECT * FROM messaging.message_logs WHERE id = $1 AND tenant_id = $2',
      [id, tenantId],
    );
    return rows[0] ? toMessageLog(rows[0]) : undefined;
  }

  async findById(db: Db, id: number, { lock = false } = {}): Promise<MessageLog | undefined> {
    const rows: Row[] = await db.query(
      `SELECT * FROM messaging.message_logs WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ? toMessageLog(rows[0]) : undefined;
  }

  async findByProviderId(
    db: Db,
    providerMessageId: string,
    { lock = false } = {},
  ): Promise<MessageLog | undefined> {
    const rows: Row[] = await db.query(
      `SELECT * FROM messaging.message_logs WHERE provider_message_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [providerMessageId],
    );
    return rows[0] ? toMessageLog(rows[0]) : undefined;
  }

  async findByCampaignRecipient(campaignRecipientId: string): Promise<MessageLog | undefined> {
    const rows: Row[] = await this.dataSource.query(
      'SELECT * FROM messaging.message_logs WHERE campaign_recipient_id = $1',
      [campaignRecipientId],
    );
    return rows[0] ? toMessageLog(rows[0]) : undefined;
  }

  async list(
    tenantId: number,
    filter: { status?: string; toPhone?: string; campaignId?: string },
    page: number,
    perPage: number,
  ): Promise<{ items: MessageLog[]; total: number }> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    if (filter.status) where.push(`status = $${params.push(filter.status)}`);
    if (filter.toPhone) where.push(`to_phone = $${params.push(filter.toPhone)}`);
    if (filter.campaignId) where.push(`campaign_id = $${params.push(filter.campaignId)}`);
    const clause = where.join(' AND ');
    const [rows, count] = await Promise.all([
      queryRows<Row>(
        this.dataSource,
        `SELECT * FROM messaging.message_logs WHERE ${clause} ORDER BY id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
        params,
      ),
      queryRows<{ total: string }>(
        this.dataSource,
        `SELECT count(*) AS total FROM messaging.message_logs WHERE ${clause}`,
        params,
      ),
    ]);
    return { items: rows.map(toMessageLog), total: Number(count[0].total) };
  }

  /** Applies a change of columns to one row when its status is still `expected`; the new row, or undefined. */
  async transition(
    tx: EntityManager,
    id: number,
    expected: readonly MessageStatus[],
    set: Record<string, unknown>,
  ): Promise<MessageLog | undefined> {
    const columns = Object.keys(set);
    const assignments = columns.map((c, i) => `${c} = $${i + 3}`).join(', ');
    const rows = await queryRows<Row>(
      tx,
      `UPDATE messaging.message_logs SET ${assignments}, updated_at = now()
        WHERE id = $1 AND status = ANY($2) RETURNING *`,
      [id, expected, ...columns.map((c) => set[c])],
    );
    return rows[0] ? toMessageLog(rows[0]) : undefined;
  }
}
