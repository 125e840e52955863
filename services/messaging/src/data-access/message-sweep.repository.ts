import { JUST_DUE, queryRows } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { toMessageLog } from './message-log.repository';
import type { MessageLog } from '../domain/ports/message-log.port';
import type { MessageSweeps } from '../domain/ports/message-sweep.port';

type Row = Parameters<typeof toMessageLog>[0];

/** Where message_logs' triggers announce when a scheduled message or a retry falls due (epoch ms). */
export const DUE_CHANNEL = 'messaging_due';

/** Rows one pass of a sweep takes. */
const SWEEP_BATCH = 500;

/**
 * A claim whose worker is alive is that worker's to settle (it may hold the upstream's answer and be waiting for the
 * database to record it): the sweeps leave it alone. A worker is alive while its lease row exists: a row is deleted
 * only by another worker that saw it lapse while its own lease held throughout a lease's length (SendWorkerLease),
 * so a database outage, which stops every renewal, kills no one. A claim without a worker (a replica older than
 * the leases, or an unknown outcome its worker handed over) is the sweeps' at once.
 */
const NOT_A_LIVE_WORKERS = (alias: string) =>
  `NOT EXISTS (SELECT 1 FROM messaging.send_workers w WHERE w.id = ${alias}.claimed_by)`;

/**
 * The scheduler's queries over message logs: batches of due, stranded or unfinished messages, each taken with
 * SKIP LOCKED so that several replicas sweep side by side.
 */
export class MessageSweepRepository implements MessageSweeps {
  constructor(private readonly dataSource: DataSource) {}

  /** Locks a batch of scheduled messages whose time has come, the earliest first (rows other replicas hold skipped). */
  async lockDueScheduled(tx: EntityManager): Promise<MessageLog[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM messaging.message_logs WHERE status = 'scheduled' AND scheduled_at <= now()
        ORDER BY scheduled_at LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED`,
    );
    return rows.map(toMessageLog);
  }

  /** Takes a batch of retries whose backoff is over off their timer; their ids, each to get a delivery command. */
  async takeDueRetries(tx: EntityManager): Promise<number[]> {
    const rows = await queryRows<{ id: string }>(
      tx,
      `UPDATE messaging.message_logs SET next_attempt_at = NULL, updated_at = now()
        WHERE id IN (SELECT id FROM messaging.message_logs
                      WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at <= now()
                      LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
    );
    return rows.map((r) => Number(r.id));
  }

  async oldestReady(): Promise<Date | undefined> {
    const [row] = await queryRows<{ updated_at: Date }>(
      this.dataSource,
      `SELECT updated_at FROM messaging.message_logs
        WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at IS NULL
        ORDER BY updated_at LIMIT 1`,
    );
    return row?.updated_at;
  }

  async touchStranded(tx: EntityManager, untouchedSince: Date): Promise<number[]> {
    const rows = await queryRows<{ id: string }>(
      tx,
      `UPDATE messaging.message_logs SET updated_at = now()
        WHERE id IN (SELECT id FROM messaging.message_logs
                      WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at IS NULL
                        AND updated_at < $1
                      LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [untouchedSince],
    );
    return rows.map((r) => Number(r.id));
  }

  /**
   * Gives the unfinished attempts of one kind that started more than `olderThanMs` ago back to the scheduler,
   * to be sent again now (a batch at a time, rows other replicas hold skipped): `awaiting slot`, never handed to
   * the upstream; `unknown outcome, not resent`, handed over with no answer and no status report, which are
   * marked as resent so that it happens once.
   */
  async releaseUnfinishedAttempts(
    kind: 'awaiting slot' | 'unknown outcome, not resent',
    olderThanMs: number,
  ): Promise<number> {
    const which =
      kind === 'awaiting slot' ? 'awaiting_slot' : 'NOT awaiting_slot AND NOT resent_after_unknown_outcome';
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `UPDATE messaging.message_logs
          SET attempt_started_at = NULL, next_attempt_at = now(), updated_at = now(),
              resent_after_unknown_outcome = resent_after_unknown_outcome OR NOT awaiting_slot, awaiting_slot = false
        WHERE id IN (SELECT id FROM messaging.message_logs s
                      WHERE status = 'queued' AND attempt_started_at IS NOT NULL AND ${which}
                        AND attempt_started_at < now() - $1 * interval '1 millisecond' AND ${NOT_A_LIVE_WORKERS('s')}
                      LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [olderThanMs],
    );
    return rows.length;
  }

  async releaseOrphanedClaims(marginMs: number): Promise<{ awaitingSlot: number; refuted: number }> {
    const rows = await queryRows<{ awaiting: boolean }>(
      this.dataSource,
      `WITH o AS (
         SELECT s.id, s.awaiting_slot FROM messaging.message_logs s
          WHERE s.status = 'queued' AND s.attempt_started_at IS NOT NULL AND s.claimed_by IS NOT NULL
            AND ${NOT_A_LIVE_WORKERS('s')}
            AND (s.awaiting_slot
                 OR EXISTS (SELECT 1 FROM messaging.report_marks r
                             WHERE r.channel_account_id = s.channel_account_id
                               AND r.reported_through > s.attempt_started_at + $1 * interval '1 millisecond'))
          LIMIT ${SWEEP_BATCH} FOR UPDATE OF s SKIP LOCKED)
       UPDATE messaging.message_logs m
          SET attempt_started_at = NULL, next_attempt_at = now(), updated_at = now(), awaiting_slot = false,
              claimed_by = NULL
         FROM o WHERE m.id = o.id
       RETURNING o.awaiting_slot AS awaiting`,
      [marginMs],
    );
    const awaitingSlot = rows.filter((r) => r.awaiting).length;
    return { awaitingSlot, refuted: rows.length - awaitingSlot };
  }

  async releaseRefutedAttempts(olderThanMs: number, marginMs: number): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `UPDATE messaging.message_logs
          SET attempt_started_at = NULL, next_attempt_at = now(), updated_at = now()
        WHERE id IN (SELECT s.id FROM messaging.message_logs s
                      WHERE s.status = 'queued' AND s.attempt_started_at IS NOT NULL AND NOT s.awaiting_slot
                        AND s.attempt_started_at < now() - $1 * interval '1 millisecond' AND ${NOT_A_LIVE_WORKERS('s')}
                        AND EXISTS (SELECT 1 FROM messaging.report_marks r
                                     WHERE r.channel_account_id = s.channel_account_id
                                       AND r.reported_through > s.attempt_started_at + $2 * interval '1 millisecond')
                      LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [olderThanMs, marginMs],
    );
    return rows.length;
  }

  /** Locks a batch of handed-over attempts that started more than `olderThanMs` ago and are still unfinished. */
  async lockUnknownOutcomes(tx: EntityManager, olderThanMs: number): Promise<MessageLog[]> {
    const rows = await queryRows<Row>(
      tx,
      `SELECT s.* FROM messaging.message_logs s
        WHERE status = 'queued' AND attempt_started_at IS NOT NULL AND NOT awaiting_slot
          AND attempt_started_at < now() - $1 * interval '1 millisecond' AND ${NOT_A_LIVE_WORKERS('s')}
        LIMIT ${SWEEP_BATCH} FOR UPDATE OF s SKIP LOCKED`,
      [olderThanMs],
    );
    return rows.map(toMessageLog);
  }

  /**
   * The earliest time a scheduled message or a retry falls due (or fell due just now), or an attempt in flight reaches the end
   * of its window (three index lookups), if any.
   */
  async nextDueAt(settleAfterMs: number): Promise<Date | undefined> {
    const [row] = await queryRows<{ at: Date | null }>(
      this.dataSource,
      `SELECT least(
         (SELECT min(scheduled_at) FROM messaging.message_logs WHERE status = 'scheduled' AND scheduled_at > now() - ${JUST_DUE}),
         (SELECT min(next_attempt_at) FROM messaging.message_logs
           WHERE status = 'queued' AND next_attempt_at IS NOT NULL AND next_attempt_at > now() - ${JUST_DUE}),
         (SELECT min(attempt_started_at) FROM messaging.message_logs
           WHERE status = 'queued' AND attempt_started_at IS NOT NULL AND NOT awaiting_slot)
           + $1 * interval '1 millisecond') AS at`,
      [settleAfterMs],
    );
    return row?.at ?? undefined;
  }
}
