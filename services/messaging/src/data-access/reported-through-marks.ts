import type { Logger } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { ReportedThrough } from '../domain/ports/status-report.port';

/**
 * How far each number's status reports have come (messaging.report_marks, a row per number and writing backend),
 * kept in memory as committed status batches note it and written at most every `flushMs`: one upsert per number
 * for all the batches of that time, where a write per batch cost a row write for nearly every lifecycle. A mark
 * only ever lags: the sweeps read it to refute an abandoned attempt once later sends of its number were reported,
 * so a lag of `flushMs` (or the marks of a process that died before writing them, which the next reports of the
 * number write again) delays a refutation by as much, and never makes a wrong one.
 */
export class ReportedThroughMarks {
  private readonly pending = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
    private readonly flushMs: number,
  ) {}

  /** Notes the marks of a committed batch; written within `flushMs`. */
  note(marks: readonly ReportedThrough[]): void {
    for (const m of marks)
      this.pending.set(
        m.channelAccountId,
        Math.max(this.pending.get(m.channelAccountId) ?? 0, m.sentAt.getTime()),
      );
    if (this.pending.size > 0 && this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes the noted marks now (one that would not move forward writes nothing); kept for a next try on failure. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    if (this.pending.size === 0) return;
    const rows = [...this.pending].sort(([a], [b]) => (a < b ? -1 : 1));
    this.pending.clear();
    this.flushing = this.write(rows).catch((err: unknown) => {
      this.logger.warn('report marks not written, trying again', { error: (err as Error).message });
      this.note(rows.map(([channelAccountId, t]) => ({ channelAccountId, sentAt: new Date(t) })));
    });
    await this.flushing;
  }

  private async write(rows: Array<[string, number]>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO messaging.report_marks AS r (channel_account_id, shard, reported_through)
       SELECT a, pg_backend_pid(), t FROM unnest($1::text[], $2::timestamptz[]) AS i(a, t)
       ON CONFLICT (channel_account_id, shard)
       DO UPDATE SET reported_through = EXCLUDED.reported_through
       WHERE r.reported_through < EXCLUDED.reported_through`,
      [rows.map(([a]) => a), rows.map(([, t]) => new Date(t).toISOString())],
    );
  }
}
