import { currentTraceparent, outboxInsertSql, prepared, queryRows } from '@bm/platform';
import { DEFAULT_CAPACITY_WINDOW_MS, openConversationSql } from './conversation-ledger.repository';
import { DOMAIN_EVENTS, routingKeyOf, type MessageLogType, type MessageStatus } from '@bm/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { MessagePricing } from '@bm/platform';
import { DELIVER_COMMAND, deliverCommand } from '../domain/emit-event';
import {
  campaignSendKey,
  type CampaignRecipientRef,
  type CampaignSend,
  type InsertOptions,
  type MessageContent,
  type MessageListFilter,
  type MessageLog,
  type MessageLogStore,
  type NewMessageLog,
  type SentRecord,
  type StatusMove,
} from '../domain/ports/message-log.port';
import type { MessageReader } from '../domain/ports/message-reader.port';
import type { SendQueue } from '../domain/ports/send-queue.port';
import { MESSAGING_SCHEMA } from './data-source';
import { conversationMessageEventsSql, conversationMessageReturning } from './conversation-events-sql';
import { preparedRows } from './prepared-statement';
import { serviceWindowOpenSql } from './service-window-sql';
import { statusColumns } from './status-columns';

// The group-commit writer takes these from here.
export type { InsertOptions, MessageLog, NewMessageLog };

interface Row {
  id: string;
  tenant_id: number;
  channel_account_id: string;
  to_phone: string;
  to_user_id: string | null;
  message_type: MessageLogType;
  content: MessageContent;
  template_category: string | null;
  conversation_category: string;
  status: MessageStatus;
  provider_message_id: string | null;
  scheduled_at: Date | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  failed_at: Date | null;
  cost_amount: string;
  cost_currency: string;
  error_code: number | null;
  error_message: string | null;
  held: boolean;
  played_at: Date | null;
  pricing: MessagePricing | null;
  auto_retry_on_frequency_cap: boolean;
  retry_count: number;
  retry_of_message_log_id: string | null;
  retried_by_message_log_id: string | null;
  campaign_id: string | null;
  campaign_recipient_id: string | null;
  campaign_recipient_attempt: number | null;
  send_attempts: number;
  attempt_started_at: Date | null;
  created_at: Date;
  traceparent: string | null;
  conversation_id: string | null;
  /** Only from the reads that join the channel account (READ_COLUMNS). */
  from_phone?: string | null;
}

const num = (v: string | null): number | null => (v === null ? null : Number(v));

/** Maps a row of messaging.message_logs (bigint ids arrive as strings). */
export function toMessageLog(r: Row): MessageLog {
  return {
    id: Number(r.id),
    tenantId: r.tenant_id,
    channelAccountId: r.channel_account_id,
    toPhone: r.to_phone,
    toUserId: r.to_user_id,
    messageType: r.message_type,
    content: r.content,
    templateCategory: r.template_category,
    conversationCategory: r.conversation_category,
    status: r.status,
    providerMessageId: r.provider_message_id,
    scheduledAt: r.scheduled_at,
    sentAt: r.sent_at,
    deliveredAt: r.delivered_at,
    readAt: r.read_at,
    failedAt: r.failed_at,
    costAmount: Number(r.cost_amount),
    costCurrency: r.cost_currency,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    held: r.held,
    playedAt: r.played_at,
    pricing: r.pricing,
    autoRetryOnFrequencyCap: r.auto_retry_on_frequency_cap,
    retryCount: r.retry_count,
    retryOfMessageLogId: num(r.retry_of_message_log_id),
    retriedByMessageLogId: num(r.retried_by_message_log_id),
    campaignId: r.campaign_id,
    campaignRecipientId: r.campaign_recipient_id,
    campaignRecipientAttempt: r.campaign_recipient_attempt,
    sendAttempts: r.send_attempts,
    attemptStartedAt: r.attempt_started_at,
    createdAt: r.created_at,
    traceparent: r.traceparent,
    conversationId: r.conversation_id,
  };
}

/** A row of the API's reads (READ_COLUMNS): the message log with its account's display number. */
const toReadMessageLog = (r: Row): MessageLog => ({ ...toMessageLog(r), fromPhone: r.from_phone ?? null });

// The columns of a Row, named so that the insert's prepared plan keeps its result type when a column is added.
const MESSAGE_LOG_COLUMNS = `id, tenant_id, channel_account_id, to_phone, to_user_id, message_type, content, template_category,
  conversation_category, status, provider_message_id, scheduled_at, sent_at, delivered_at, read_at, failed_at,
  cost_amount, cost_currency, error_code, error_message, held, played_at, pricing, auto_retry_on_frequency_cap, retry_count,
  retry_of_message_log_id, retried_by_message_log_id, campaign_id, campaign_recipient_id, campaign_recipient_attempt,
  send_attempts, attempt_started_at, created_at, traceparent, conversation_id`;

// See insertMany. A constant text: it runs as a prepared statement, parsed once per connection. Planned once too:
// `(SELECT $1::int[])` hides the batch's length from the planner, so each custom plan is costed for the same 10
// rows as the generic one, and from the sixth run on PostgreSQL keeps the generic plan (the same plan: an index
// probe of service_windows per row) instead of planning every batch again: planning took about as long as running
// a one-row batch (0.35-0.45 ms against 0.45-0.6 in EXPLAIN ANALYZE; 0.05 ms with the generic plan). With the
// lengths visible, a batch of a few rows costs far less than the generic plan's 10, so PostgreSQL planned each run.
// The ids come from reserveIds, so the delivery command ($21, $22: deliverCommand's, built before the statement)
// can name them; it is written only when some row to deliver passed the window check.
const INSERT_MESSAGE_LOGS_SQL = prepared(`WITH i AS (
     SELECT t.*
       FROM unnest((SELECT $1::int[]), $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::text[], $8::text[],
                   $9::timestamptz[], $10::boolean[], $11::int[], $12::bigint[], $13::text[], $14::text[],
                   $15::boolean[], $16::boolean[], $17::text[], $18::int[], $19::text[], $20::bigint[])
            WITH ORDINALITY AS t(tenant_id, channel_account_id, to_phone, message_type, content, template_category,
              conversation_category, status, scheduled_at, auto_retry, retry_count, retry_of, campaign_id,
              campaign_recipient_id, deliver, require_window, traceparent, campaign_recipient_attempt, to_user_id,
              new_id, ord)),
   ok AS (
     -- The customer's conversation on the account, if they have one (its unique index): the inbox streams the send.
     SELECT i.*, (SELECT c.id FROM messaging.inbox_conversations c
                   WHERE c.channel_account_id = i.channel_account_id AND c.customer_key = i.to_phone) AS conversation_id
       FROM i
      WHERE NOT i.require_window OR EXISTS (
        SELECT 1 FROM messaging.service_windows w
         WHERE w.channel_account_id = i.channel_account_id AND w.customer_phone = i.to_phone
           AND ${serviceWindowOpenSql('w')})),
   m AS (
     INSERT INTO messaging.message_logs
       (id, tenant_id, channel_account_id, to_phone, to_user_id, message_type, content, template_category,
        conversation_category, status, scheduled_at, auto_retry_on_frequency_cap, retry_count, retry_of_message_log_id,
        campaign_id, campaign_recipient_id, campaign_recipient_attempt, traceparent, conversation_id)
     SELECT new_id, tenant_id, channel_account_id, to_phone, to_user_id, message_type, content, template_category,
            conversation_category, status, scheduled_at, auto_retry, retry_count, retry_of, campaign_id,
            campaign_recipient_id, campaign_recipient_attempt, traceparent, conversation_id FROM ok
     RETURNING ${MESSAGE_LOG_COLUMNS}, ${conversationMessageReturning('message_logs')}),
   ce AS (${conversationMessageEventsSql('m')}),
   o AS (${outboxInsertSql(
     MESSAGING_SCHEMA,
     `SELECT $21::text, '${DELIVER_COMMAND}', $22::jsonb, '{}'::jsonb
       WHERE $22::jsonb IS NOT NULL AND EXISTS (SELECT 1 FROM ok WHERE ok.deliver)`,
   )})
   SELECT i.ord, ${MESSAGE_LOG_COLUMNS.replace(/(\w+)/g, 'm.$1')} FROM i LEFT JOIN m ON m.id = i.new_id ORDER BY i.ord`);

type Db = DataSource | EntityManager;

// The API's reads: the message with its sending account's display number (the account's primary key).
const READ_FROM = `messaging.message_logs m
  LEFT JOIN messaging.channel_accounts a ON a.id = m.channel_account_id`;
const READ_COLUMNS = 'm.*, a.display_phone_number AS from_phone';

/** The WHERE clause of a tenant's filtered messages (on `m`), with its parameters from $1. */
function filterSql(tenantId: number, filter: MessageListFilter): { clause: string; params: unknown[] } {
  const where = ['m.tenant_id = $1'];
  const params: unknown[] = [tenantId];
  // Both ids are indexed lookups: the primary key, and the partial unique index of provider_message_id.
  if (filter.messageId !== undefined) where.push(`m.id = $${params.push(filter.messageId)}`);
  if (filter.wamid) where.push(`m.provider_message_id = $${params.push(filter.wamid)}`);
  if (filter.status) where.push(`m.status = $${params.push(filter.status)}`);
  if (filter.toPhone) where.push(`m.to_phone = $${params.push(filter.toPhone)}`);
  if (filter.toUserId) where.push(`m.to_user_id = $${params.push(filter.toUserId)}`);
  if (filter.campaignId) where.push(`m.campaign_id = $${params.push(filter.campaignId)}`);
  if (filter.channelAccountId) where.push(`m.channel_account_id = $${params.push(filter.channelAccountId)}`);
  if (filter.messageType) where.push(`m.message_type = $${params.push(filter.messageType)}`);
  if (filter.createdFrom) where.push(`m.created_at >= $${params.push(filter.createdFrom)}`);
  if (filter.createdTo) where.push(`m.created_at < $${params.push(filter.createdTo)}`);
  return { clause: where.join(' AND '), params };
}

const RESERVE_IDS_SQL = prepared(
  `SELECT nextval('messaging.message_logs_id_seq') AS id FROM generate_series(1, $1::int)`,
);

const CLAIM_ATTEMPTS_SQL = prepared(`UPDATE messaging.message_logs
          SET send_attempts = send_attempts + 1, attempt_started_at = now(), awaiting_slot = false, updated_at = now(),
              claimed_by = $2
        WHERE id = ANY($1::bigint[]) AND status = 'queued' AND attempt_started_at IS NULL
          AND (next_attempt_at IS NULL OR next_attempt_at <= now())
        RETURNING *`);

/** markSent's statement: the send's answer recorded, its conversation opened (capacityWindowMs) and its events. */
const markSentSql = (capacityWindowMs: number): string =>
  prepared(`WITH i AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::boolean[]) AS t(id, provider_message_id, held)),
       l AS (SELECT id FROM messaging.message_logs WHERE id = ANY($1::bigint[]) AND status = 'queued'
              ORDER BY id FOR UPDATE),
       u AS (
         UPDATE messaging.message_logs m
            SET ${statusColumns("'sent'", 'now()', 'i.held')}, provider_message_id = i.provider_message_id,
                error_code = NULL
           FROM i JOIN l ON l.id = i.id WHERE m.id = i.id AND m.id = ANY($1::bigint[]) AND m.status = 'queued'
         RETURNING m.*, ${conversationMessageReturning('m')}),
       ce AS (${conversationMessageEventsSql('u')}),
       c AS (${openConversationSql("(SELECT u.*, u.campaign_id AS reference FROM u WHERE u.message_type = 'template')", capacityWindowMs)})
       SELECT u.*, EXISTS (SELECT 1 FROM messaging.pending_status_reports p
                            WHERE p.provider_message_id = u.provider_message_id) AS has_pending
         FROM u`);

/** message_logs: one class behind the three roles (writes, reads, the send queue), which use cases see apart. */
export class MessageLogRepository implements MessageLogStore, MessageReader, SendQueue {
  private readonly markSentSql: string;

  constructor(
    private readonly dataSource: DataSource,
    capacityWindowMs = DEFAULT_CAPACITY_WINDOW_MS,
  ) {
    this.markSentSql = markSentSql(capacityWindowMs);
  }

  /** Inserts one message log; see insertMany. */
  async insert(db: Db, m: NewMessageLog, options: InsertOptions): Promise<MessageLog | undefined>;
  async insert(db: Db, m: NewMessageLog, options?: { deliver?: boolean }): Promise<MessageLog>;
  async insert(db: Db, m: NewMessageLog, options: InsertOptions = {}): Promise<MessageLog | undefined> {
    return (await this.insertMany(db, [{ message: m, traceparent: currentTraceparent(), ...options }]))[0];
  }

  /**
   * Inserts message logs in one atomic statement, in order. With `deliver`, the rows' delivery command (one for
   * the statement, `deliverCommand` listing each message with its trace) goes into the outbox in the same
   * statement; with `requireServiceWindow`, a row is written only while its customer's service window is open
   * (else its answer is undefined, and its reserved id is never used). One statement for many sends is the send
   * path's group commit: round trips and WAL flushes, not CPU, bound it.
   */
  async insertMany(
    db: Db,
    items: Array<{ message: NewMessageLog } & InsertOptions>,
  ): Promise<Array<MessageLog | undefined>> {
    const ids = await this.reserveIds(db, items.length);
    const toDeliver = items.flatMap((it, i) =>
      it.deliver ? [{ id: ids[i], traceparent: it.traceparent ?? null }] : [],
    );
    const command = toDeliver.length > 0 ? deliverCommand(toDeliver) : undefined;
    const column = <T>(pick: (m: NewMessageLog, item: InsertOptions) => T): T[] =>
      items.map((it) => pick(it.message, it));
    const rows = await preparedRows<Row & { ord: string }>(db, INSERT_MESSAGE_LOGS_SQL, [
      column((m) => m.tenantId),
      column((m) => m.channelAccountId),
      column((m) => m.toPhone),
      column((m) => m.messageType),
      column((m) => JSON.stringify(m.content)),
      column((m) => m.templateCategory),
      column((m) => m.conversationCategory),
      column((m) => m.status),
      column((m) => m.scheduledAt),
      column((m) => m.autoRetryOnFrequencyCap),
      column((m) => m.retryCount ?? 0),
      column((m) => m.retryOfMessageLogId ?? null),
      column((m) => m.campaignId ?? null),
      column((m) => m.campaignRecipientId ?? null),
      column((_m, o) => o.deliver ?? false),
      column((_m, o) => o.requireServiceWindow ?? false),
      column((_m, o) => o.traceparent ?? null),
      column((m) => m.campaignRecipientAttempt ?? null),
      column((m) => m.toUserId ?? null),
      ids,
      command?.messageId ?? null,
      command ? JSON.stringify(command.payload) : null,
    ]);
    return rows.map((r) => (r.id === null ? undefined : toMessageLog(r)));
  }

  /** The next `count` message log ids, in order: the insert's rows take them, and its delivery command names them. */
  private async reserveIds(db: Db, count: number): Promise<number[]> {
    const rows = await preparedRows<{ id: string }>(db, RESERVE_IDS_SQL, [count]);
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  }

  async findForTenant(id: number, tenantId: number): Promise<MessageLog | undefined> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${READ_COLUMNS} FROM ${READ_FROM} WHERE m.id = $1 AND m.tenant_id = $2`,
      [id, tenantId],
    );
    return rows[0] ? toReadMessageLog(rows[0]) : undefined;
  }

  async findById(db: Db, id: number, { lock = false } = {}): Promise<MessageLog | undefined> {
    const rows: Row[] = await db.query(
      `SELECT * FROM messaging.message_logs WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ? toMessageLog(rows[0]) : undefined;
  }

  async findByIds(ids: readonly number[]): Promise<MessageLog[]> {
    if (ids.length === 0) return [];
    const rows: Row[] = await this.dataSource.query(
      'SELECT * FROM messaging.message_logs WHERE id = ANY($1::bigint[])',
      [ids],
    );
    return rows.map(toMessageLog);
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

  /** Which of these campaign recipients' sends already have their message log (keys as `campaignSendKey`). */
  async existingCampaignRecipients(sends: readonly CampaignRecipientRef[]): Promise<Set<string>> {
    const rows: Array<{ id: string; attempt: number | null }> = await this.dataSource.query(
      `SELECT campaign_recipient_id AS id, campaign_recipient_attempt AS attempt FROM messaging.message_logs
        WHERE campaign_recipient_id = ANY($1::text[])`,
      [sends.map((s) => s.id)],
    );
    return new Set(rows.map(campaignSendKey));
  }

  async findByCampaignRecipient(send: CampaignRecipientRef): Promise<MessageLog | undefined> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT * FROM messaging.message_logs
        WHERE campaign_recipient_id = $1 AND campaign_recipient_attempt IS NOT DISTINCT FROM $2`,
      [send.id, send.attempt],
    );
    return rows[0] ? toMessageLog(rows[0]) : undefined;
  }

  async list(
    tenantId: number,
    filter: MessageListFilter,
    page: number,
    perPage: number,
  ): Promise<{ items: MessageLog[]; total: number }> {
    const { clause, params } = filterSql(tenantId, filter);
    const [rows, count] = await Promise.all([
      queryRows<Row>(
        this.dataSource,
        `SELECT ${READ_COLUMNS} FROM ${READ_FROM} WHERE ${clause}
          ORDER BY m.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
        params,
      ),
      queryRows<{ total: string }>(
        this.dataSource,
        `SELECT count(*) AS total FROM messaging.message_logs m WHERE ${clause}`,
        params,
      ),
    ]);
    return { items: rows.map(toReadMessageLog), total: Number(count[0].total) };
  }

  /**
   * One page of a tenant's filtered messages for an export, newest first, below `beforeId` (keyset: each page is
   * an index range scan of message_logs_tenant_idx, however deep into the export).
   */
  async exportPage(
    tenantId: number,
    filter: MessageListFilter,
    beforeId: number | null,
    limit: number,
  ): Promise<MessageLog[]> {
    const { clause, params } = filterSql(tenantId, filter);
    const keyset = beforeId === null ? '' : ` AND m.id < $${params.push(beforeId)}`;
    const rows = await queryRows<Row>(
      this.dataSource,
      `SELECT ${READ_COLUMNS} FROM ${READ_FROM} WHERE ${clause}${keyset} ORDER BY m.id DESC LIMIT ${limit}`,
      params,
    );
    return rows.map(toReadMessageLog);
  }

  /** What a tenant's campaign's messages cost, in one currency: one read of message_logs_campaign_idx's rows. */
  async campaignCost(tenantId: number, campaignId: string, currency: string): Promise<number> {
    const [row] = await queryRows<{ amount: string }>(
      this.dataSource,
      `SELECT coalesce(sum(cost_amount), 0) AS amount FROM messaging.message_logs
        WHERE campaign_id = $2 AND tenant_id = $1 AND cost_currency = $3`,
      [tenantId, campaignId, currency],
    );
    return Number(row.amount);
  }

  /**
   * Claims queued messages for one send attempt each, recording the attempt before the upstream call: a worker
   * that dies mid-call leaves them marked, so no message is handed over twice for one attempt. Messages not
   * queued, already being sent or waiting for a retry are left out.
   */
  async claimAttempts(ids: number[], claimant: string): Promise<MessageLog[]> {
    const rows = await queryRows<Row>(this.dataSource, CLAIM_ATTEMPTS_SQL, [ids, claimant]);
    return rows.map(toMessageLog);
  }

  /**
   * Gives back `claimant`'s claims of messages that were never handed over; they come again after `delayMs`. A claim
   * another worker holds now (taken over meanwhile) is left alone.
   */
  async releaseClaims(ids: number[], delayMs: number, claimant: string): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      `UPDATE messaging.message_logs
          SET attempt_started_at = NULL, awaiting_slot = false, send_attempts = greatest(send_attempts - 1, 0),
              next_attempt_at = now() + $2 * interval '1 millisecond', updated_at = now(), claimed_by = NULL
        WHERE id = ANY($1::bigint[]) AND status = 'queued' AND attempt_started_at IS NOT NULL
          AND claimed_by IS NOT DISTINCT FROM $3::uuid`,
      [ids, delayMs, claimant],
    );
  }

  /** Leaves `claimant`'s claims whose outcome is unknown to the sweeps (the upstream's reports, then the window). */
  async leaveToSweeps(ids: number[], claimant: string): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      `UPDATE messaging.message_logs SET claimed_by = NULL
        WHERE id = ANY($1::bigint[]) AND status = 'queued' AND claimed_by = $2::uuid`,
      [ids, claimant],
    );
  }

  /**
   * Records that claimed messages wait for their throughput slot (`true`: not handed to the upstream, safe to
   * send again if the worker dies) or are about to be handed over (`false`, committed before the call). Only this
   * claim of each message is marked (its `send_attempts`, which every claim raises and the sweep never lowers):
   * the ids answered are the messages still held by it.
   */
  async markAwaitingSlot(claimed: MessageLog[], awaiting: boolean): Promise<Set<number>> {
    if (claimed.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `UPDATE messaging.message_logs m SET awaiting_slot = $3
         FROM unnest($1::bigint[], $2::int[]) AS c(id, attempts)
        WHERE m.id = c.id AND m.send_attempts = c.attempts AND m.status = 'queued'
          AND m.attempt_started_at IS NOT NULL
        RETURNING m.id`,
      [claimed.map((m) => m.id), claimed.map((m) => m.sendAttempts), awaiting],
    );
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Ends a failed attempt of a still queued message, to be tried again in `delayMs`, with the error it met. */
  async scheduleRetry(
    id: number,
    delayMs: number,
    errorCode: number | null,
    withinMs?: number,
  ): Promise<boolean> {
    const window = withinMs !== undefined;
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `UPDATE messaging.message_logs
          SET attempt_started_at = NULL, next_attempt_at = now() + $2 * interval '1 millisecond',
              error_code = $3, updated_at = now(),
              retrying_since = CASE WHEN $4 THEN coalesce(retrying_since, now()) ELSE retrying_since END
        WHERE id = $1 AND status = 'queued'
          AND (NOT $4 OR coalesce(retrying_since, now()) > now() - $5 * interval '1 millisecond')
        RETURNING id`,
      [id, delayMs, errorCode, window, withinMs ?? 0],
    );
    return rows.length > 0;
  }

  /** Records which message retries a failed one (so that it is retried once). */
  async linkRetry(tx: EntityManager, failedId: number, retryId: number): Promise<void> {
    await tx.query('UPDATE messaging.message_logs SET retried_by_message_log_id = $2 WHERE id = $1', [
      failedId,
      retryId,
    ]);
  }

  /**
   * A campaign recipient's queued template message, once per recipient: its id, or undefined when the
   * recipient already has one.
   */
  async insertCampaignSend(tx: EntityManager, send: CampaignSend): Promise<number | undefined> {
    // With the customer's conversation on the account when they have one (its unique index): the inbox streams it.
    const inserted: Array<{ id: string }> = await tx.query(
      `WITH m AS (
         INSERT INTO messaging.message_logs
           (tenant_id, channel_account_id, to_phone, message_type, content, template_category, conversation_category,
            status, campaign_id, campaign_recipient_id, campaign_recipient_attempt, traceparent, to_user_id,
            conversation_id)
         VALUES ($1, $2, $3, 'template', $4, $5, $6, 'queued', $7, $8, $10, $9, $11,
                 (SELECT c.id FROM messaging.inbox_conversations c WHERE c.channel_account_id = $2 AND c.customer_key = $3))
         ON CONFLICT (campaign_recipient_id, campaign_recipient_attempt) WHERE campaign_recipient_id IS NOT NULL
         DO NOTHING RETURNING id, ${conversationMessageReturning('message_logs')}),
       ce AS (${conversationMessageEventsSql('m')})
       SELECT id FROM m`,
      [
        send.tenantId,
        send.channelAccountId,
        send.toPhone,
        JSON.stringify(send.content),
        send.templateCategory,
        send.conversationCategory,
        send.campaignId,
        send.campaignRecipientId,
        send.traceparent,
        send.campaignRecipientAttempt,
        send.toUserId,
      ],
    );
    return inserted.length === 0 ? undefined : Number(inserted[0].id);
  }

  /**
   * The hot path of successful sends in one atomic statement for a whole batch: each message becomes `sent` and a
   * template opens its conversation in the tier ledger; the caller sends the `sent` events of the messages answered
   * once the statement has committed (MessagingDeps.statusEvents). Messages
   * with status reports that overtook the send are flagged for the caller to apply. Inside the caller's
   * transaction when given one (a status report naming a send attempt whose answer never came). The rows are
   * locked in id order first, as a batch of status reports locks them (StatusReportRepository.lockForReports):
   * the two then queue behind each other instead of deadlocking.
   */
  async markSent(
    sent: SentRecord[],
    db: Db = this.dataSource,
  ): Promise<Array<{ message: MessageLog; hasPendingReports: boolean }>> {
    if (sent.length === 0) return [];
    const rows = await queryRows<Row & { has_pending: boolean }>(db, this.markSentSql, [
      sent.map((s) => s.id),
      sent.map((s) => s.providerMessageId),
      sent.map((s) => s.held),
    ]);
    return rows.map((r) => ({ message: toMessageLog(r), hasPendingReports: r.has_pending }));
  }

  /**
   * Moves one message to `move.status` when its status is still one of `expected` (so that concurrent reports
   * cannot both win), with the wamid and the failure when given; the new row, or undefined.
   */
  async moveTo(
    tx: EntityManager,
    id: number,
    expected: readonly MessageStatus[],
    move: StatusMove,
  ): Promise<MessageLog | undefined> {
    const failure = move.status === 'failed';
    const rows = await queryRows<Row>(
      tx,
      `UPDATE messaging.message_logs m SET ${statusColumns('$3::text', '$4::timestamptz')},
              provider_message_id = coalesce($5, m.provider_message_id),
              error_code = CASE WHEN $6 THEN $7 ELSE m.error_code END,
              error_message = CASE WHEN $6 THEN $8 ELSE m.error_message END
        WHERE m.id = $1 AND m.status = ANY($2) RETURNING m.*`,
      [
        id,
        expected,
        move.status,
        move.at,
        move.providerMessageId ?? null,
        failure,
        failure ? (move.errorCode ?? null) : null,
        failure ? (move.errorMessage ?? 'failed') : null,
      ],
    );
    return rows[0] ? toMessageLog(rows[0]) : undefined;
  }
}

/** The routing key of a `message.status_updated` event: campaign's queue takes only its own recipients'. */
export const statusRoutingKey = (event: Record<string, unknown>): string =>
  routingKeyOf(DOMAIN_EVENTS.messageStatusUpdated, event);
