import { outboxInsertSql } from '@bm/platform';
import { MESSAGING_SCHEMA } from './data-source';

/*
 * The inbox's `conversation.message` events of the send path's statements (a send, a batch of sends or status
 * moves), written by the statement itself so that they commit with the change: a message log that belongs to no
 * conversation (`conversation_id` null, set by the send) costs that null check and nothing else.
 */

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const isoOf = (at: string) => `to_char(${at} AT TIME ZONE 'UTC', ${ISO_UTC})`;
const stringAt = (json: string, key: string) =>
  `CASE WHEN jsonb_typeof(${json}->'${key}') = 'string' THEN ${json}->>'${key}' END`;

/**
 * A message log row (`m`) as a conversation's message: the outbound shape of toConversationMessageDto
 * (domain/conversations/conversation.dto.ts), which the thread's reader uses; the e2e suite compares the two.
 */
function outboundMessageJson(m: string): string {
  return `jsonb_build_object(
    'direction', 'outbound', 'provider_message_id', ${m}.provider_message_id, 'message_log_id', ${m}.id,
    'type', ${m}.message_type, 'status', ${m}.status,
    'template', CASE WHEN jsonb_typeof(${m}.content->'name') = 'string' THEN jsonb_build_object(
      'name', ${m}.content->>'name', 'language', coalesce(${stringAt(`${m}.content`, 'language')}, '')) END,
    'error_message', ${m}.error_message, 'created_at', ${isoOf(`${m}.created_at`)},
    'text', ${stringAt(`${m}.content`, 'text')}, 'media', null, 'location', null, 'contacts', null,
    'reaction', null, 'reply', null, 'context_message_id', null, 'raw', null)`;
}

/**
 * Columns for a RETURNING of message_logs (`m`, the row after the change): its tenant, its conversation, and the
 * message as the conversation shows it, built only for a row that belongs to one.
 */
export function conversationMessageReturning(m: string): string {
  return `${m}.tenant_id AS conversation_tenant_id, ${m}.conversation_id AS conversation_ref,
    CASE WHEN ${m}.conversation_id IS NOT NULL THEN ${outboundMessageJson(m)} END AS conversation_message`;
}

/** The outbox rows of `conversation.message` for the rows of `changed` (a RETURNING with the columns above). */
export function conversationMessageEventsSql(changed: string): string {
  return outboxInsertSql(
    MESSAGING_SCHEMA,
    `SELECT e.conversation_event_id, 'conversation.message',
            jsonb_build_object('event_id', e.conversation_event_id, 'tenant_id', e.conversation_tenant_id,
                               'occurred_at', ${isoOf('clock_timestamp()')}, 'conversation_id', e.conversation_ref,
                               'message', e.conversation_message),
            '{}'::jsonb
       FROM (SELECT gen_random_uuid()::text AS conversation_event_id, c.* FROM ${changed} c WHERE c.conversation_ref IS NOT NULL) e`,
  );
}
