import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace of the request that created a message. The upstream's receipts come without one (webhook-ingress
 * starts a new trace for each webhook), so the status events of delivered, read and failed continue this one:
 * a send's trace reaches the client's receiver for every status, not only `sent`.
 */
export class MessageTraces1763900000007 implements MigrationInterface {
  name = 'MessageTraces1763900000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE messaging.message_logs ADD COLUMN traceparent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE messaging.message_logs DROP COLUMN traceparent');
  }
}
