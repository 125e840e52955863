import { sqlMigration } from '@bm/platform';

/**
 * The live-chat inbox (CONTRACT.md, "Conversations"): one conversation per customer and channel account, keyed
 * like the service window by the customer's key address (their phone when known, else their user id). The table
 * is `inbox_conversations`: `conversations` is the capacity ledger's (business-initiated conversations).
 *
 * A customer's messages point at their conversation (`conversation_id`), with their text beside the raw body for
 * the search, and the ingress event id they came in (`arrival_id`, a ULID: the order they reached us, which tells
 * apart messages the upstream stamped with the same second). Messages sent to the customer are not copied: the thread reads them from `message_logs` by account
 * and recipient, through the index below.
 *
 * Indexes, for 100,000 conversations and 1,000,000 messages in one tenant:
 * - the listing's page: (tenant, activity) and the same behind each filter (status, assignee, account), so the
 *   first page is the index's first rows, the count an index-only scan;
 * - a thread's latest messages: (conversation, time) for the customer's, (account, recipient, time) for ours;
 * - the search: trigram indexes over the customer's names and addresses and over the customer's texts.
 * New columns on existing tables are nullable or have a constant default: no table rewrite.
 */
export const InboxConversations1766400000000 = sqlMigration('InboxConversations1766400000000', {
  up: [
    'CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public',
    `CREATE TABLE messaging.inbox_conversations (
       id text PRIMARY KEY,
       tenant_id integer NOT NULL,
       channel_account_id text NOT NULL REFERENCES messaging.channel_accounts(id),
       customer_key text NOT NULL,
       customer_phone text,
       customer_user_id text,
       customer_name text,
       username text,
       status text NOT NULL DEFAULT 'open',
       assignee text,
       last_activity_at timestamptz NOT NULL,
       last_inbound_message_id text,
       last_message_text text,
       unread_count integer NOT NULL DEFAULT 0,
       read_at timestamptz,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now(),
       UNIQUE (channel_account_id, customer_key),
       CHECK (status IN ('open', 'closed'))
     )`,
    `CREATE INDEX inbox_conversations_activity_idx
       ON messaging.inbox_conversations (tenant_id, last_activity_at DESC, id DESC)`,
    `CREATE INDEX inbox_conversations_status_idx
       ON messaging.inbox_conversations (tenant_id, status, last_activity_at DESC, id DESC)`,
    `CREATE INDEX inbox_conversations_assignee_idx
       ON messaging.inbox_conversations (tenant_id, assignee, last_activity_at DESC, id DESC)
       WHERE assignee IS NOT NULL`,
    `CREATE INDEX inbox_conversations_account_idx
       ON messaging.inbox_conversations (channel_account_id, last_activity_at DESC, id DESC)`,
    `CREATE INDEX inbox_conversations_search_idx ON messaging.inbox_conversations
       USING gin ((coalesce(customer_phone, '') || ' ' || coalesce(customer_user_id, '') || ' ' ||
                   coalesce(customer_name, '') || ' ' || coalesce(username, '')) public.gin_trgm_ops)`,
    `ALTER TABLE messaging.inbound_messages
       ADD COLUMN conversation_id text, ADD COLUMN text text, ADD COLUMN arrival_id text`,
    `CREATE INDEX inbound_messages_thread_idx
       ON messaging.inbound_messages (conversation_id, received_at DESC, provider_message_id DESC)
       WHERE conversation_id IS NOT NULL`,
    `CREATE INDEX inbound_messages_text_idx ON messaging.inbound_messages
       USING gin (text public.gin_trgm_ops) WHERE text IS NOT NULL`,
    `CREATE INDEX message_logs_recipient_idx
       ON messaging.message_logs (channel_account_id, to_phone, created_at DESC, id DESC)`,
  ],
  down: [
    'DROP INDEX messaging.message_logs_recipient_idx',
    'DROP INDEX messaging.inbound_messages_text_idx',
    'DROP INDEX messaging.inbound_messages_thread_idx',
    `ALTER TABLE messaging.inbound_messages
       DROP COLUMN conversation_id, DROP COLUMN text, DROP COLUMN arrival_id`,
    'DROP TABLE messaging.inbox_conversations',
  ],
});
