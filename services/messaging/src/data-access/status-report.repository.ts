import type { InboundStatusItem, MessageStatus } from '@bm/contracts';
import { prepared, queryRows } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { ForwardMove, MessageLog } from '../domain/ports/message-log.port';
import type {
  OrphanedReports,
  ReportCursor,
  ReportMark,
  StatusReportStore,
} from '../domain/ports/status-report.port';
import { toMessageLog } from './message-log.repository';
import { conversationMessageEventsSql, conversationMessageReturning } from './conversation-events-sql';
import { statusColumns } from './status-columns';

type Row = Parameters<typeof toMessageLog>[0];

// An arm for an empty array is left out, not written as `id = ANY('{}')`: the planner takes that constant-false
// clause as implying any partial index's predicate and answers it with a whole scan of one (every queued message's
// row visited and rechecked, for a batch of a few receipts). A statement must use every parameter it is given, so
// the wait ids are the last one, given only with their arm. One prepared text per combination of arms.
const lockForReportsSql = (wait: boolean, skipLocked: boolean): string => {
  const waitArm = wait ? 'OR id = ANY($4::bigint[])' : '';
  // The read of what is neither locked nor skipped. With the attempts' ids too it is a lookup by id of both kinds,
  // not `provider_message_id = ANY(..) OR id = ANY(..)`, which the planner answered with a scan of the table.
  const unlocked = skipLocked
    ? `m.id = ANY(ARRAY(SELECT id FROM messaging.message_logs WHERE provider_message_id = ANY($1::text[])
                        UNION ALL SELECT unnest($3::bigint[])))`
    : 'm.provider_message_id = ANY($1::text[])';
  return prepared(
    `WITH w AS (
         SELECT * FROM messaging.message_logs
          WHERE (provider_message_id = ANY($1::text[])
                 AND status = ANY(string_to_array(($2::text[])[array_position($1::text[], provider_message_id)], ',')))
             ${waitArm}
          ORDER BY id FOR UPDATE),
       s AS (
         SELECT * FROM messaging.message_logs
          WHERE id = ANY($3::bigint[]) AND id NOT IN (SELECT id FROM w)
            AND (provider_message_id IS NULL OR provider_message_id <> ALL($1::text[]))
          ORDER BY id FOR UPDATE SKIP LOCKED)
       SELECT w.*, 'locked' AS kind FROM w
       UNION ALL SELECT s.*, 'locked' FROM s
       UNION ALL
       SELECT m.*, CASE WHEN m.provider_message_id = ANY($1::text[]) THEN 'settled' ELSE 'busy' END
         FROM messaging.message_logs m
        WHERE ${unlocked}
          AND m.id NOT IN (SELECT id FROM w) AND m.id NOT IN (SELECT id FROM s)`,
  );
};
const LOCK_FOR_REPORTS: Record<string, string> = Object.fromEntries(
  [false, true].flatMap((wait) =>
    [false, true].map((skipLocked) => [`${wait}:${skipLocked}`, lockForReportsSql(wait, skipLocked)]),
  ),
);

// Each statement also names its rows by `id = ANY($1)`: whatever join the planner picks for the unnested arrays,
// the rows are found through the primary key, never by a scan of the table.
const MOVE_FORWARD = prepared(
  `WITH i AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[])
                  AS t(id, status, expected, at)),
     u AS (
       UPDATE messaging.message_logs m
          SET ${statusColumns('i.status', 'i.at')}
         FROM i WHERE m.id = i.id AND m.id = ANY($1::bigint[]) AND m.status = ANY(string_to_array(i.expected, ','))
       RETURNING m.id, ${conversationMessageReturning('m')}),
     ce AS (${conversationMessageEventsSql('u')})
     SELECT id FROM u`,
);

const MARK_REPORTED = prepared(
  `WITH i AS (SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::jsonb[], $4::numeric[], $5::text[])
                    AS t(id, played_at, pricing, cost, currency)),
            l AS (SELECT m.id, m.tenant_id, m.cost_amount, m.cost_currency, m.pricing->>'category' AS category
                    FROM messaging.message_logs m JOIN i ON i.id = m.id
                   WHERE m.id = ANY($1::bigint[]) AND (m.held OR (m.played_at IS NULL AND i.played_at IS NOT NULL)
                      OR (i.pricing IS NOT NULL AND (m.pricing IS DISTINCT FROM i.pricing
                          OR m.cost_amount IS DISTINCT FROM i.cost OR m.cost_currency IS DISTINCT FROM i.currency)))
                   ORDER BY m.id FOR UPDATE OF m),
            u AS (
              UPDATE messaging.message_logs m
                 SET held = false, played_at = coalesce(m.played_at, i.played_at),
                     pricing = coalesce(i.pricing, m.pricing),
                     cost_amount = CASE WHEN i.pricing IS NULL THEN m.cost_amount ELSE i.cost END,
                     cost_currency = CASE WHEN i.pricing IS NULL THEN m.cost_currency ELSE i.currency END,
                     updated_at = now()
                FROM i JOIN l ON l.id = i.id WHERE m.id = i.id AND m.id = ANY($1::bigint[])
              RETURNING m.id, m.tenant_id, m.cost_amount, m.cost_currency, m.pricing->>'category' AS category),
            d AS (SELECT tenant_id, category, cost_currency AS currency, cost_amount AS amount FROM u
                  UNION ALL
                  SELECT tenant_id, category, cost_currency, -cost_amount FROM l WHERE category IS NOT NULL)
       INSERT INTO messaging.message_cost_daily AS s (tenant_id, day, category, currency, shard, amount)
       SELECT tenant_id, date_trunc('day', now() AT TIME ZONE 'UTC'), category, currency, pg_backend_pid(), sum(amount)
         FROM d WHERE category IS NOT NULL GROUP BY 1, 3, 4 HAVING sum(amount) <> 0 ORDER BY 1, 3, 4
       ON CONFLICT (tenant_id, day, category, currency, shard) DO UPDATE SET amount = s.amount + EXCLUDED.amount`,
);

/** Status reports: the batch's locks and forward moves, and the reports kept until their message's wamid. */
export class StatusReportRepository implements StatusReportStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Locks the messages with these provider ids that a receipt can move (their status is one of its
   * `movableFrom`), and those with the ids `attempts.wait` (the send attempts reports name), in id order: batches
   * that share messages queue behind each other instead of deadlocking. A message no receipt of the batch can move
   * (a `sent` receipt after the send recorded it, a duplicate) is read without a lock (`settled`): a lock would
   * cost a write of its row and a wait behind any batch holding it, for a receipt that changes nothing. Statuses
   * only move forward, so one that cannot move now never will.
   *
   * The ids `attempts.skipLocked` are locked only when no other transaction holds them, and answered as `busy`
   * otherwise: such a row is nearly always a send's markSent giving the message its wamid right now (the report
   * overtook the send's answer), and waiting for it here would hold the whole batch's locks meanwhile, which
   * markSent's next batch would then wait for in turn. Never waiting, that part cannot deadlock with the first.
   */
  async lockForReports(
    tx: EntityManager,
    reports: Array<{ providerMessageId: string; movableFrom: readonly MessageStatus[] }>,
    attempts: { wait: number[]; skipLocked: number[] },
  ): Promise<{ messages: MessageLog[]; settled: MessageLog[]; busy: MessageLog[] }> {
    if (reports.length === 0 && attempts.wait.length === 0 && attempts.skipLocked.length === 0)
      return { messages: [], settled: [], busy: [] };
    const statement = LOCK_FOR_REPORTS[`${attempts.wait.length > 0}:${attempts.skipLocked.length > 0}`];
    const rows = await queryRows<Row & { kind: 'locked' | 'settled' | 'busy' }>(tx, statement, [
      reports.map((r) => r.providerMessageId),
      reports.map((r) => r.movableFrom.join(',')),
      attempts.skipLocked,
      ...(attempts.wait.length > 0 ? [attempts.wait] : []),
    ]);
    const of = (kind: string) => rows.filter((r) => r.kind === kind).map(toMessageLog);
    return { messages: of('locked'), settled: of('settled'), busy: of('busy') };
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
   * Moves each message forward in one statement for the whole batch, with the fields a single report's change sets
   * (its time, and sent_at when a receipt overtook the send); answers the moves made. Their `message.status_updated`
   * events are not written here: the batch sends them once it has committed (StatusReportBatches).
   */
  async moveForward(tx: EntityManager, moves: ForwardMove[]): Promise<ForwardMove[]> {
    if (moves.length === 0) return [];
    const rows = await queryRows<{ id: string }>(tx, MOVE_FORWARD, [
      moves.map((m) => m.id),
      moves.map((m) => m.status),
      moves.map((m) => m.expected.join(',')),
      moves.map((m) => m.at.toISOString()),
    ]);
    const moved = new Set(rows.map((r) => Number(r.id)));
    return moves.filter((m) => moved.has(m.id));
  }

  /**
   * Clears `held`, records `played_at` (the earliest) and, when a report priced the message, its pricing and cost
   * (the last mark's: marks come in arrival order); rows locked in id order, as every batch does. A message the
   * marks would not change (the `delivered` report repeating the `sent` one's pricing, as the upstream's do) is
   * neither locked nor written.
   */
  async markReported(tx: EntityManager, marks: ReportMark[]): Promise<void> {
    if (marks.length === 0) return;
    const byId = new Map<number, { played: Date | null; priced: ReportMark['priced'] }>();
    for (const mark of marks) {
      const seen = byId.get(mark.id);
      const played = [seen?.played, mark.playedAt].filter((d): d is Date => d instanceof Date);
      byId.set(mark.id, {
        played: played.length ? new Date(Math.min(...played.map((d) => d.getTime()))) : null,
        priced: mark.priced ?? seen?.priced ?? null,
      });
    }
    const rows = [...byId].sort(([a], [b]) => a - b);
    // The locked rows' cost as it was (a row lock reads the latest version), the new one, and the difference
    // added to the day's cost counter of each category (moved out of the old category on a repricing).
    await tx.query(MARK_REPORTED, [
      rows.map(([id]) => id),
      rows.map(([, r]) => r.played?.toISOString() ?? null),
      rows.map(([, r]) => (r.priced ? JSON.stringify(r.priced.pricing) : null)),
      rows.map(([, r]) => r.priced?.cost ?? null),
      rows.map(([, r]) => r.priced?.currency ?? null),
    ]);
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

  /**
   * Messages that have their provider id and yet kept reports (their transaction raced the reports'), among up to
   * `limit` reports that arrived after `after` (from the first when null), in arrival order: an index range, then
   * one index lookup per report. Answers the last report read when the range was full (the next call starts
   * there), and the database's time of the check.
   */
  async messagesWithOrphanedReports(after: ReportCursor | null, limit: number): Promise<OrphanedReports> {
    const [row] = await queryRows<{
      ids: string[];
      scanned: number;
      last_at: Date | null;
      last_id: string | null;
      checked_at: Date;
    }>(
      this.dataSource,
      `WITH p AS MATERIALIZED (
         SELECT provider_message_id, received_at FROM messaging.pending_status_reports
          WHERE (received_at, provider_message_id) > ($1::timestamptz, $2::text)
          ORDER BY received_at, provider_message_id LIMIT $3),
       last AS (SELECT * FROM p ORDER BY received_at DESC, provider_message_id DESC LIMIT 1)
       SELECT now() AS checked_at, (SELECT count(*) FROM p)::int AS scanned,
              (SELECT received_at FROM last) AS last_at, (SELECT provider_message_id FROM last) AS last_id,
              ARRAY(SELECT DISTINCT m.id FROM p
                      JOIN messaging.message_logs m ON m.provider_message_id = p.provider_message_id)::text[] AS ids`,
      [after?.at ?? '-infinity', after?.providerMessageId ?? '', limit],
    );
    const full = row.scanned === limit && row.last_at !== null && row.last_id !== null;
    return {
      ids: row.ids.map(Number),
      next: full ? { at: row.last_at!, providerMessageId: row.last_id! } : null,
      checkedAt: row.checked_at,
    };
  }

  /** Deletes up to `limit` kept reports that arrived more than `retentionHours` ago; answers how many. */
  async deleteExpiredPendingReports(retentionHours: number, limit: number): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      this.dataSource,
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
}
