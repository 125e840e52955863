import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxWakeTrigger, dropWakeTrigger } from '@bm/platform';

/**
 * What lets an idle messaging service sleep: the outbox relay is woken by its wake trigger instead of polling,
 * the scheduler by a notification on `messaging_due` carrying the time a scheduled message or a retry falls due
 * (rare writes, so the notification's commit cost stays off the hot paths). The sweep for reports kept before
 * their message had its provider id reads them by arrival time, as does their retention; the sweep for attempts
 * held before their throughput slot gets an index of its own.
 */
export class IdleWake1765200000000 implements MigrationInterface {
  name = 'IdleWake1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxWakeTrigger(q, 'messaging');
    await q.query(`
      CREATE FUNCTION messaging.message_due_wake() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('messaging_due',
          (extract(epoch FROM coalesce(NEW.next_attempt_at, NEW.scheduled_at)) * 1000)::bigint::text);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER message_scheduled_wake AFTER INSERT ON messaging.message_logs
        FOR EACH ROW WHEN (NEW.status = 'scheduled' AND NEW.scheduled_at IS NOT NULL)
        EXECUTE FUNCTION messaging.message_due_wake()`);
    await q.query(`
      CREATE TRIGGER message_retry_wake AFTER UPDATE OF next_attempt_at ON messaging.message_logs
        FOR EACH ROW WHEN (NEW.next_attempt_at IS NOT NULL AND NEW.next_attempt_at > now()
                           AND NEW.next_attempt_at IS DISTINCT FROM OLD.next_attempt_at)
        EXECUTE FUNCTION messaging.message_due_wake()`);
    await q.query(
      `CREATE INDEX pending_status_reports_received_idx
         ON messaging.pending_status_reports (received_at, provider_message_id)`,
    );
    // The sweep for attempts a dead worker held before their slot reads only those, not every attempt in flight.
    await q.query(
      `CREATE INDEX message_logs_awaiting_slot_idx ON messaging.message_logs (attempt_started_at)
        WHERE status = 'queued' AND attempt_started_at IS NOT NULL AND awaiting_slot`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX messaging.message_logs_awaiting_slot_idx');
    await q.query('DROP INDEX messaging.pending_status_reports_received_idx');
    await q.query('DROP TRIGGER message_retry_wake ON messaging.message_logs');
    await q.query('DROP TRIGGER message_scheduled_wake ON messaging.message_logs');
    await q.query('DROP FUNCTION messaging.message_due_wake()');
    await dropWakeTrigger(q, 'messaging', 'outbox');
  }
}
