import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';
import type { ChannelAccount } from '../ports/account.port';
import type { FlowSession } from '../ports/flow-session.port';

type SessionEvent = 'flow.session_started' | 'flow.session_completed' | 'flow.session_cancelled';

/** A `flow.session_*` event with the session's variables, in the caller's transaction. */
export async function emitSessionEvent(
  deps: Pick<MessagingDeps, 'outbox'>,
  tx: Tx,
  key: SessionEvent,
  s: FlowSession,
): Promise<void> {
  await deps.outbox.emit(tx, key, s.tenantId, {
    flow_id: s.flowId,
    session_id: s.id,
    phone: s.phone,
    variables: s.variables,
  });
}

/** Ends a session (ended_at now, no step, no expiry) and emits its event. */
export async function endSession(
  deps: Pick<MessagingDeps, 'flowSessions' | 'outbox'>,
  tx: Tx,
  session: FlowSession,
  status: 'completed' | 'handed_off' | 'cancelled' | 'timed_out',
): Promise<void> {
  Object.assign(session, { status, currentStep: null, expiresAt: null, endedAt: new Date() });
  await deps.flowSessions.update(tx, session);
  await emitSessionEvent(
    deps,
    tx,
    status === 'completed' || status === 'handed_off' ? 'flow.session_completed' : 'flow.session_cancelled',
    session,
  );
}

/** The customer message a live-chat request points at. */
export interface CustomerMessage {
  account: ChannelAccount;
  /** How the customer is known: their phone's digits, or their user id when the upstream gave no phone. */
  from: string;
  /** Their phone's digits; null for a customer the upstream names by user id only. */
  phone: string | null;
  /** Their business-scoped user id, when the upstream gave one. */
  userId: string | null;
  name: string | null;
  messageId: string;
  text: string | null;
  at: Date;
}

const HOUR_MS = 3_600_000;

/**
 * Asks webhook-ingress, which keeps the tenant's notifications, for a person: for a message no automation
 * answered (at most one per customer and number per clock hour of the message) or for a flow's hand-off (one
 * per session). Either reopens the customer's conversation.
 */
export async function requestLiveChat(
  deps: Pick<MessagingDeps, 'outbox' | 'conversations'>,
  tx: Tx,
  message: CustomerMessage,
  handoffSessionId: string | null,
): Promise<void> {
  const { account } = message;
  // A person is asked for: the customer's conversation is open again, whoever closed it.
  const conversationId = await deps.conversations.reopen(tx, account.id, message.from);
  const dedupeKey = handoffSessionId
    ? `flow_handoff:${handoffSessionId}`
    : `live_chat_request:${account.phoneNumberId}:${message.from}:${Math.floor(message.at.getTime() / HOUR_MS)}`;
  await deps.outbox.emit(tx, 'live_chat.requested', account.tenantId, {
    channel_account_id: account.id,
    phone_number_id: account.phoneNumberId,
    customer_phone: message.phone,
    customer_user_id: message.userId,
    customer_name: message.name,
    message_id: message.messageId,
    text: message.text,
    reason: handoffSessionId ? 'flow_handoff' : 'no_automation',
    flow_session_id: handoffSessionId,
    conversation_id: conversationId,
    dedupe_key: dedupeKey,
  });
}
