import type { InboundStatusItem } from '@bm/contracts';
import { queryRows } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { ForwardMove, MessageLog, StatusReportStore } from '../domain/ports/message-log.port';
import { statusEventsSql, toMessageLog } from './message-log.repository';
import { statusColumns } from './status-columns';

type Row = Parameters<typeof toMessageLog>[0];

/** Status reports: the batch's locks and forward moves, and the reports kept until their message's wamid. */
export class StatusReportRepository implements StatusReportStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Locks the messages with these provider ids, and those with these ids (the send attempts reports name), in id
   * order: batches that share messages queue behind each other instead of deadlocking.
   */
  async lockForReports(
    tx: EntityManager,
    providerMessageIds: string[],
    messageLogIds: number[],
  ): Promise<MessageLog[]> {
    if (providerMessageIds.length === 0 && messageLogIds.length === 0) return [];
    const rows = await queryRows<Row>(
      tx,
      `SELECT * FROM messaging.message_logs
      WHERE provider_message_id = ANY($1::text[]) OR id = ANY($2::bigint[]) ORDER BY id FOR UPDATE`,
      [providerMessageIds, messageLogIds],
    );
    return rows.map(toMessageLog);
  }

  /** Keeps receipts whose message has no provider id yet, to be applied once the send records it. */
  async keepPendingReports(tx: EntityManager, items: InboundStatusItem[]): Promise<void> {
    if (items.length === 0) return;
    // One insert order for every batch, so two batches keeping the same reports cannot deadlock.
    const sorted = [...items].sort(
      (a, b) =>
        a.provider_message_id.localeCompare(b.provider_message_id) || a.status.localeCompare(b.status),
    );
    await tx.query(
      `INSERT INTO messaging.pending_status_reports (provider_message_id, status, report)
     SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[]) ON CONFLICT DO NOTHING`,
      [
        sorted.map((i) => i.provider_message_id),
        sorted.map((i) => i.status),
        sorted.map((i) => JSON.stringify(i)),
      ],
    );
  }

  /**
   * Moves each message forward and writes its `message.status_updated` event in one statement for the whole batch,
   * with the fields a single report's change sets (its time, and sent_at when a receipt overtook the send).
   */
  async moveForward(tx: EntityManager, moves: ForwardMove[]): Promise<void> {
    if (moves.length === 0) return;
    await tx.query(
      `WITH i AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::text[],
                                     $6::jsonb[], $7::text[]) AS t(id, status, expected, at, event_id, event, traceparent)),
     u AS (
       UPDATE messaging.message_logs m
          SET ${statusColumns('i.status', 'i.at')}
         FROM i WHERE m.id = i.id AND m.status = ANY(string_to_array(i.expected, ','))
       RETURNING m.id)
     ${statusEventsSql('i', 'u')}`,
      [
        moves.map((m) => m.id),
        moves.map((m) => m.status),
        moves.map((m) => m.expected.join(',')),
        moves.map((m) => m.at.toISOString()),
        moves.map((m) => m.eventId),
        moves.map((m) => JSON.stringify(m.event)),
        moves.map((m) => m.traceparent ?? null),
      ],
    );
  }

  /** Takes the reports kept for a provider message id, now that a message has it. */
  async takePendingReports<R>(
    tx: EntityManager,
    providerMessageId: string,
  ): Promise<Array<{ status: string; report: R }>> {
    return queryRows<{ status: string; report: R }>(
      tx,
      'DELETE FROM messaging.pending_status_reports WHERE provider_message_id = $1 RETURNING status, report',
      [providerMessageId],
    );
  }

  /** Messages that have their provider id and yet kept reports (their transaction raced the reports'). */
  async messagesWithOrphanedReports(): Promise<number[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT DISTINCT m.id FROM messaging.pending_status_reports p
       JOIN messaging.message_logs m ON m.provider_message_id = p.provider_message_id LIMIT 100`,
    );
    return rows.map((r) => Number(r.id));
  }
}
