import type { DataSource } from 'typeorm';
import type { Retention } from '../domain/ports/retention.port';
import { queryRows } from '@bm/platform';

/** Deletes what the health monitor no longer shows, in bounded batches so no statement runs long. */
export class RetentionRepository implements Retention {
  constructor(private readonly ds: DataSource) {}

  /**
   * Removes up to `batch` finished deliveries created more than `days` ago, with their attempts, and the events
   * left without any delivery. Pending deliveries are kept whatever their age. Returns how many were removed.
   */
  async purge(days: number, batch: number): Promise<number> {
    return this.ds.transaction(async (tx) => {
      const gone = await queryRows<{ id: string; event_id: string }>(
        tx,
        `WITH old AS (
           SELECT id FROM dispatcher.deliveries
            WHERE status <> 'pending' AND created_at < now() - $1 * interval '1 day'
            LIMIT $2 FOR UPDATE SKIP LOCKED
         ), attempts AS (
           DELETE FROM dispatcher.delivery_attempts a USING old WHERE a.delivery_id = old.id
         )
         DELETE FROM dispatcher.deliveries d USING old WHERE d.id = old.id
         RETURNING d.id, d.event_id`,
        [days, batch],
      );
      if (gone.length === 0) return 0;
      await tx.query(
        `DELETE FROM dispatcher.events e WHERE e.id = ANY($1)
           AND NOT EXISTS (SELECT 1 FROM dispatcher.deliveries d WHERE d.event_id = e.id)`,
        [[...new Set(gone.map((g) => g.event_id))]],
      );
      return gone.length;
    });
  }
}
