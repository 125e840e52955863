import type { EventPublisher } from './amqp.types';

/** A message for sendConfirmed. */
export interface MessageToSend {
  routingKey: string;
  payload: object;
  messageId: string;
  headers?: Record<string, unknown>;
}

/** What sendConfirmed found: every message confirmed, or why not. */
export type SendOutcome = { confirmed: true } | { confirmed: false; error: string };

/**
 * Publishes the messages issued back to back, and answers once the broker confirmed all of them (one round trip
 * for the lot). Not confirmed: the broker away (answered at once), a rejection, or no confirm within `timeoutMs`
 * (blocked, or a connection dying). A confirm arriving after that leaves a message published as well as stored by
 * the caller's fallback; its consumers keep one copy by its id.
 */
export async function sendConfirmed(
  amqp: EventPublisher,
  messages: readonly MessageToSend[],
  timeoutMs: number,
): Promise<SendOutcome> {
  if (messages.length === 0) return { confirmed: true };
  if (!amqp.isConnected()) return { confirmed: false, error: 'the broker is not connected' };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<SendOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ confirmed: false, error: `no confirm within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const confirmed = Promise.all(
    messages.map((m) =>
      amqp.publish(m.routingKey, m.payload, { messageId: m.messageId, headers: m.headers ?? {} }),
    ),
  ).then(
    (): SendOutcome => ({ confirmed: true }),
    (err: unknown): SendOutcome => ({
      confirmed: false,
      error: err instanceof Error ? err.message : String(err),
    }),
  );
  try {
    return await Promise.race([confirmed, late]);
  } finally {
    clearTimeout(timer);
  }
}
