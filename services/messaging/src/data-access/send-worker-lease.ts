import { randomUUID } from 'node:crypto';
import { queryRows } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { WorkerLease } from '../domain/ports/send-queue.port';

/**
 * This process' lease in messaging.send_workers. The database's lease runs from its own `now()`, taken after the
 * renewal began here: counted from that beginning, and a fifth short of its length, this process stops using it
 * before any other replica can see it lapse (the fifth covers timers firing late and clocks running apart).
 *
 * A renewal deletes the rows of workers whose lease lapsed, which makes them dead to the sweeps, only once this
 * lease has held without a break for a whole lease's length: after an outage of the database, when no worker could
 * renew, every live worker renews (and records the answers it held) before any is taken for dead.
 */
export class SendWorkerLease implements WorkerLease {
  readonly id = randomUUID();
  private validUntil = 0;
  /** When this lease last began to hold without a break (0: not holding). */
  private holdingSince = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly leaseMs: number,
  ) {}

  holds(): boolean {
    return Date.now() < this.validUntil;
  }

  /** One statement: this lease renewed, and the leases of other workers that lapsed deleted. */
  async renew(): Promise<number> {
    const began = Date.now();
    const [row] = await queryRows<{ lapsed: number }>(
      this.dataSource,
      `WITH renewed AS (
         INSERT INTO messaging.send_workers (id, lease_until) VALUES ($1, now() + $2 * interval '1 millisecond')
         ON CONFLICT (id) DO UPDATE SET lease_until = EXCLUDED.lease_until),
       lapsed AS (DELETE FROM messaging.send_workers WHERE lease_until < now() AND id <> $1 AND $3 RETURNING id)
       SELECT count(*)::int AS lapsed FROM lapsed`,
      [this.id, this.leaseMs, this.holds() && began - this.holdingSince >= this.leaseMs],
    );
    if (!this.holds()) this.holdingSince = began;
    this.validUntil = began + this.leaseMs * 0.8;
    return row.lapsed;
  }

  async release(): Promise<void> {
    this.validUntil = 0;
    this.holdingSince = 0;
    await this.dataSource.query('DELETE FROM messaging.send_workers WHERE id = $1', [this.id]);
  }
}
