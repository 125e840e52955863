import type { ConversationDto, ConversationMessageDto } from '@bm/contracts';
import { isServiceWindowOpen, SERVICE_WINDOW_HOURS } from '../lifecycle/message-lifecycle';
import type { Conversation, ThreadEntry } from '../ports/conversation.port';
import type { MessageLog } from '../ports/message-log.port';
import { inboundContentOf } from './inbound-content';

/** When the customer's service window closes, by the lifecycle's rule; null when it is closed at `now`. */
export function windowOpenUntil(lastInboundAt: Date | null, now: Date): Date | null {
  if (!lastInboundAt || !isServiceWindowOpen(lastInboundAt, now)) return null;
  return new Date(lastInboundAt.getTime() + SERVICE_WINDOW_HOURS * 3_600_000);
}

/** A conversation as the API shows it. */
export function toConversationDto(c: Conversation, now = new Date()): ConversationDto {
  return {
    id: c.id,
    channel_account_id: c.channelAccountId,
    customer: {
      phone: c.customerPhone,
      user_id: c.customerUserId,
      name: c.customerName,
      username: c.username,
    },
    status: c.status,
    assignee: c.assignee,
    open_until: windowOpenUntil(c.windowLastInboundAt, now)?.toISOString() ?? null,
    unread_count: c.unreadCount,
    read_at: c.readAt?.toISOString() ?? null,
    last_activity_at: c.lastActivityAt.toISOString(),
    last_message_text: c.lastMessageText,
    created_at: c.createdAt.toISOString(),
  };
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** One thread entry as the API shows it: a customer's message by its modelled parts, ours with its status. */
export function toConversationMessageDto(e: ThreadEntry): ConversationMessageDto {
  if (e.direction === 'inbound') {
    return {
      direction: 'inbound',
      provider_message_id: e.providerMessageId,
      message_log_id: null,
      type: e.type,
      status: null,
      template: null,
      error_message: null,
      created_at: e.at.toISOString(),
      ...inboundContentOf(e.type, e.body),
    };
  }
  const name = str(e.content.name);
  return {
    direction: 'outbound',
    provider_message_id: e.providerMessageId,
    message_log_id: e.messageLogId,
    type: e.type,
    status: e.status,
    template: name ? { name, language: str(e.content.language) ?? '' } : null,
    error_message: e.errorMessage,
    created_at: e.at.toISOString(),
    text: str(e.content.text),
    media: null,
    location: null,
    contacts: null,
    reaction: null,
    reply: null,
    context_message_id: null,
    raw: null,
  };
}

/** A message log as its conversation's thread shows it (the send path's statements build the same in SQL). */
export function toOutboundMessageDto(m: MessageLog): ConversationMessageDto {
  return toConversationMessageDto({
    direction: 'outbound',
    messageLogId: m.id,
    providerMessageId: m.providerMessageId,
    type: m.messageType,
    content: m.content,
    status: m.status,
    errorMessage: m.errorMessage,
    at: m.createdAt,
    atMicros: 0n,
  });
}
