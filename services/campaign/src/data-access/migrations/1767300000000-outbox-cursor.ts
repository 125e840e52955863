import { addOutboxCursor, dropOutboxCursor, sqlMigration } from '@bm/platform';

/** The outbox relay's cursor: a row costs its insert alone (addOutboxCursor). */
export const OutboxCursor1767300000000 = sqlMigration('OutboxCursor1767300000000', {
  up: [(q) => addOutboxCursor(q, 'campaign')],
  down: [(q) => dropOutboxCursor(q, 'campaign')],
});
