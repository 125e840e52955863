import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The trace of the domain event a webhook event came from, so every attempt continues it. */
export class EventTraceparent1764000000003 implements MigrationInterface {
  name = 'EventTraceparent1764000000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE dispatcher.events ADD COLUMN traceparent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE dispatcher.events DROP COLUMN traceparent');
  }
}
