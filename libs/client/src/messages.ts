import type { BmClient } from './client';
import { unwrap } from './errors';
import type { components, operations } from './generated/openapi';

export type MessageLog = components['schemas']['MessageLog'];
export type MessageStatus = MessageLog['status'];
export type SendMessageRequest = components['schemas']['SendMessageRequest'];
export type SendAcknowledgement = components['schemas']['SendAcknowledgement'];
export type ListMessagesQuery = NonNullable<operations['listMessages']['parameters']['query']>;

/** Sends a text or template message; with an idempotency key a retried call answers the first result. */
export async function sendMessage(
  client: BmClient,
  body: SendMessageRequest,
  options: { idempotencyKey?: string } = {},
): Promise<SendAcknowledgement> {
  const headers = options.idempotencyKey === undefined ? {} : { 'Idempotency-Key': options.idempotencyKey };
  return unwrap(await client.POST('/api/v1/messages/send', { body, params: { header: headers } }));
}

export async function getMessage(client: BmClient, id: number): Promise<MessageLog> {
  return unwrap(await client.GET('/api/v1/messages/{id}', { params: { path: { id: String(id) } } }));
}

/** Statuses after which a message changes no more (read, failed, cancelled). */
export const FINAL_STATUSES: readonly MessageStatus[] = ['read', 'failed', 'cancelled'];

export interface PollOptions {
  /** Stop once the message is in one of these; by default a final status. */
  until?: readonly MessageStatus[];
  intervalMs?: number;
  timeoutMs?: number;
  /** Called with each status seen, in order, the first time it is seen. */
  onStatus?: (message: MessageLog) => void;
  signal?: AbortSignal;
}

/**
 * Polls a message until it reaches one of `until` (its last state when the time is up). Webhooks tell sooner;
 * polling is for the client that cannot take them.
 */
export async function pollMessage(
  client: BmClient,
  id: number,
  options: PollOptions = {},
): Promise<MessageLog> {
  const until = options.until ?? FINAL_STATUSES;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let last: MessageStatus | undefined;
  for (;;) {
    const message = await getMessage(client, id);
    if (message.status !== last) options.onStatus?.(message);
    last = message.status;
    if (until.includes(message.status) || Date.now() >= deadline || options.signal?.aborted) return message;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1_000));
  }
}

/** One page of the sent list, newest first, with its pagination. */
export async function listMessages(
  client: BmClient,
  query: ListMessagesQuery = {},
): Promise<components['schemas']['MessageList']> {
  return unwrap(await client.GET('/api/v1/messages', { params: { query } }));
}

/** Every message matching the query, page after page, newest first. */
export async function* allMessages(
  client: BmClient,
  query: Omit<ListMessagesQuery, 'page'> = {},
): AsyncGenerator<MessageLog> {
  for (let page = 1; ; page += 1) {
    const { messages, pagination } = await listMessages(client, { ...query, page });
    yield* messages;
    if (page >= pagination.last_page) return;
  }
}
