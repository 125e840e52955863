import { sqlMigration } from '@bm/platform';

/**
 * The inbox's event stream (issue 34): a message log remembers the conversation it was sent into, found once by
 * the send's own statement (one probe of the conversations' unique index on account and customer), so that a
 * status change tells whether it belongs to a conversation from the row it updates, with no lookup. A nullable
 * column without a default: no table rewrite, no index (it is only read from rows already at hand).
 */
export const ConversationEvents1766600000000 = sqlMigration('ConversationEvents1766600000000', {
  up: ['ALTER TABLE messaging.message_logs ADD COLUMN conversation_id text'],
  down: ['ALTER TABLE messaging.message_logs DROP COLUMN conversation_id'],
});
