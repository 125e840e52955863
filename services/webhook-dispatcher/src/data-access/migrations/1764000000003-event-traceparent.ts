import { sqlMigration } from '@bm/platform';

/** The trace of the domain event a webhook event came from, so every attempt continues it. */
export const EventTraceparent1764000000003 = sqlMigration('EventTraceparent1764000000003', {
  up: ['ALTER TABLE dispatcher.events ADD COLUMN traceparent text'],
  down: ['ALTER TABLE dispatcher.events DROP COLUMN traceparent'],
});
