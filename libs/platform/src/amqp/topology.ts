import type { Channel, ConsumeMessage } from 'amqplib';
import type { ConsumedMessage } from './amqp.types';

/** Headers the client owns; handlers never see them. */
export const HEADER = {
  attempt: 'x-bm-attempt',
  routingKey: 'x-bm-routing-key',
  error: 'x-bm-error',
  /** Times an operator replayed the message from its dead-letter queue. */
  replays: 'x-bm-replays',
} as const;

export interface QueueNames {
  main: string;
  retry: string;
  dlq: string;
}

/** The three queues of one consumer: `${prefix}.${queue}`, its `.retry` and its `.dlq`. */
export function queueNames(prefix: string, queue: string): QueueNames {
  const main = prefix ? `${prefix}.${queue}` : queue;
  return { main, retry: `${main}.retry`, dlq: `${main}.dlq` };
}

/** The durable topic exchange every service publishes its events to. */
export async function declareExchange(ch: Channel, exchange: string, queueExpiresMs?: number): Promise<void> {
  // In test runs the exchange goes away with the last of its (expiring) queues.
  await ch.assertExchange(exchange, 'topic', { durable: true, autoDelete: queueExpiresMs !== undefined });
}

/**
 * Declares the main queue bound to the exchange, the retry queue that dead-letters expired copies back to the
 * main queue through the default exchange (so other queues bound to the same key never see a retry), and the DLQ.
 */
export async function declareConsumerQueues(
  ch: Channel,
  exchange: string,
  names: QueueNames,
  bindingKeys: string[],
  queueExpiresMs?: number,
  { singleActiveConsumer = false } = {},
): Promise<void> {
  const expires = queueExpiresMs === undefined ? {} : { 'x-expires': queueExpiresMs };
  const single = singleActiveConsumer ? { 'x-single-active-consumer': true } : {};
  await declareExchange(ch, exchange, queueExpiresMs);
  await ch.assertQueue(names.main, { durable: true, arguments: { ...expires, ...single } });
  await ch.assertQueue(names.retry, {
    durable: true,
    arguments: { ...expires, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': names.main },
  });
  await ch.assertQueue(names.dlq, { durable: true, arguments: { ...expires } });
  for (const key of bindingKeys) await ch.bindQueue(names.main, exchange, key);
}

const BROKER_HEADERS = /^x-(bm-|death$|first-death-|last-death-)/;

/** Reads a delivery as the handler sees it; undefined when the content is not JSON. */
export function toHandlerMessage(msg: ConsumeMessage): ConsumedMessage | undefined {
  const raw = (msg.properties.headers ?? {}) as Record<string, unknown>;
  let payload: unknown;
  try {
    payload = JSON.parse(msg.content.toString('utf8'));
  } catch {
    return undefined;
  }
  const headers: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!BROKER_HEADERS.test(key)) headers[key] = value;
  const attempt = Number(raw[HEADER.attempt] ?? 1);
  const routingKey = raw[HEADER.routingKey];
  return {
    payload,
    messageId: typeof msg.properties.messageId === 'string' ? msg.properties.messageId : '',
    routingKey: typeof routingKey === 'string' ? routingKey : msg.fields.routingKey,
    headers,
    attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : 1,
    redelivered: msg.fields.redelivered,
  };
}
