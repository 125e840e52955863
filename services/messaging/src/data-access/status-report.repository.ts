import type { InboundStatusItem, MessageStatus } from '@bm/contracts';
import { queryRows } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { toMessageLog, type MessageLog } from './message-log.repository';

type Row = Parameters<typeof toMessageLog>[0];

/** A forward move of one message (the status rules allowed it), with the event that reports it. */
export interface ForwardMove {
  id: number;
  status: Extract<MessageStatus, 'sent' | 'delivered' | 'read'>;
  /** The statuses it may still move from: the UPDATE is conditional, as a single report's is. */
  expected: MessageStatus[];
  at: Date;
  eventId: string;
  event: Record<string, unknown>;
  /** The trace the status event continues. */
  traceparent?: string;
}

/**
 * Locks the messages with these provider ids, and those with these ids (the send attempts reports name), in id
 * order: batches that share messages queue behind each other instead of deadlocking.
 */
export async function lockForReports(
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
export async function keepPendingReports(tx: EntityManager, items: InboundStatusItem[]): Promise<void> {
  if (items.length === 0) return;
  // One insert order for every batch, so two batches keeping the same reports cannot deadlock.
  const sorted = [...items].sort(
    (a, b) => a.provider_message_id.localeCompare(b.provider_message_id) || a.status.localeCompare(b.status),
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
export async function moveForward(tx: EntityManager, moves: ForwardMove[]): Promise<void> {
  if (moves.length === 0) return;
  await tx.query(
    `WITH i AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::text[],
                                     $6::jsonb[], $7::text[]) AS t(id, status, expected, at, event_id, event, traceparent)),
     u AS (
       UPDATE messaging.message_logs m
          SET status = i.status,
              sent_at = CASE WHEN i.status = 'sent' THEN i.at ELSE coalesce(m.sent_at, i.at) END,
              delivered_at = CASE WHEN i.status = 'delivered' THEN i.at ELSE m.delivered_at END,
              read_at = CASE WHEN i.status = 'read' THEN i.at ELSE m.read_at END,
              attempt_started_at = NULL, next_attempt_at = NULL, updated_at = now()
         FROM i WHERE m.id = i.id AND m.status = ANY(string_to_array(i.expected, ','))
       RETURNING m.id)
     INSERT INTO messaging.outbox (message_id, routing_key, payload, headers)
     SELECT i.event_id, 'message.status_updated', i.event,
            jsonb_strip_nulls(jsonb_build_object('traceparent', i.traceparent))
       FROM i JOIN u ON u.id = i.id`,
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
export async function takePendingReports<R>(
  tx: EntityManager,
  providerMessageId: string,
): Promise<Array<{ status: string; report: R }>> {
  return queryRows<{ status: string; report: R }>(
    tx,
    'DELETE FROM messaging.pending_status_reports WHERE provider_message_id = $1 RETURNING status, report',
    [providerMessageId],
  );
}

/**
 * Messages that have their provider id and yet kept reports (their transaction raced the reports'), among the
 * reports that arrived since `since` (all when null): an index range on arrival time, then one index lookup per
 * report. Answers the database's time of the check too, the next check's starting point.
 */
export async function messagesWithOrphanedReports(
  db: DataSource,
  since: Date | null,
): Promise<{ ids: number[]; checkedAt: Date }> {
  const [row] = await queryRows<{ ids: string[]; checked_at: Date }>(
    db,
    `SELECT now() AS checked_at, ARRAY(
       SELECT DISTINCT m.id FROM messaging.pending_status_reports p
         JOIN messaging.message_logs m ON m.provider_message_id = p.provider_message_id
        WHERE p.received_at >= coalesce($1::timestamptz, '-infinity') LIMIT 100)::text[] AS ids`,
    [since],
  );
  return { ids: row.ids.map(Number), checkedAt: row.checked_at };
}

/** Deletes up to `limit` kept reports that arrived more than `retentionHours` ago; answers how many. */
export async function deleteExpiredPendingReports(
  db: DataSource,
  retentionHours: number,
  limit: number,
): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    `WITH gone AS (
       DELETE FROM messaging.pending_status_reports WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM messaging.pending_status_reports
          WHERE received_at < now() - $1::double precision * interval '1 hour'
          ORDER BY received_at LIMIT $2))
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [retentionHours, limit],
  );
  return rows[0].n;
}
