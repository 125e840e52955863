import amqp, { type Channel, type ChannelModel, type GetMessage } from 'amqplib';
import type { DeadLetterDto } from '@bm/contracts';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { HEADER, queueNames } from './topology';

const BROKER_HEADERS = /^x-(death$|first-death-|last-death-)/;

function asDeadLetter(msg: GetMessage): DeadLetterDto {
  const headers = (msg.properties.headers ?? {}) as Record<string, unknown>;
  const text = msg.content.toString('utf8');
  let payload: unknown = text;
  try {
    payload = JSON.parse(text);
  } catch {
    // Shown as the text it is: a message that is not JSON was dead-lettered for that reason.
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const timestamp = msg.properties.timestamp as unknown;
  const attempts = headers[HEADER.attempt];
  return {
    message_id: str(msg.properties.messageId),
    routing_key: str(headers[HEADER.routingKey]),
    attempts: typeof attempts === 'number' ? attempts : null,
    error: str(headers[HEADER.error]),
    published_at: typeof timestamp === 'number' ? new Date(timestamp * 1000).toISOString() : null,
    replays: Number(headers[HEADER.replays] ?? 0) || 0,
    payload,
  };
}

const notFound = (err: unknown) => (err as { code?: unknown }).code === 404;

/**
 * The operator's view of the consumers' dead-letter queues (`${prefix}.${queue}.dlq`): how many are parked,
 * what they are, and replay, which moves them back to the consumer's own queue with a fresh attempt count, so
 * they go through the same idempotent handler as any delivery. Opens its broker connection on first use.
 */
export class DeadLetterQueues {
  private connection?: Promise<ChannelModel>;

  constructor(private readonly options: { url: string; prefix: string; logger: Logger }) {}

  /** Messages parked in the consumer's dead-letter queue; 0 when the queue was never declared. */
  async count(queue: string): Promise<number> {
    return this.withChannel(async (ch) => {
      try {
        return (await ch.checkQueue(queueNames(this.options.prefix, queue).dlq)).messageCount;
      } catch (err) {
        if (notFound(err)) return 0;
        throw err;
      }
    });
  }

  /** The first `limit` parked messages, left where they are. */
  async peek(queue: string, limit: number): Promise<DeadLetterDto[]> {
    const { dlq } = queueNames(this.options.prefix, queue);
    return this.withChannel(async (ch) => {
      const found: DeadLetterDto[] = [];
      try {
        for (let i = 0; i < limit; i += 1) {
          const msg = await ch.get(dlq, { noAck: false });
          if (msg === false) break;
          found.push(asDeadLetter(msg));
        }
      } catch (err) {
        if (notFound(err)) return [];
        throw err;
      }
      // Unacked, they go back to the queue in their order when the channel closes.
      return found;
    });
  }

  /**
   * Moves up to `limit` of the parked messages (never more than were parked when it began, so one that fails
   * again at once is not replayed twice) back to the consumer's queue; each leaves the dead-letter queue only once
   * the broker confirmed its copy. Returns how many moved and how many are still parked.
   */
  async replay(queue: string, limit: number): Promise<{ replayed: number; remaining: number }> {
    const names = queueNames(this.options.prefix, queue);
    const conn = await this.connect();
    const ch = await conn.createConfirmChannel();
    ch.on('error', () => undefined);
    try {
      let parked: number;
      try {
        parked = (await ch.checkQueue(names.dlq)).messageCount;
      } catch (err) {
        if (notFound(err)) return { replayed: 0, remaining: 0 };
        throw err;
      }
      let replayed = 0;
      while (replayed < Math.min(limit, parked)) {
        const msg = await ch.get(names.dlq, { noAck: false });
        if (msg === false) break;
        const headers: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(msg.properties.headers ?? {})) {
          if (!BROKER_HEADERS.test(k) && k !== HEADER.attempt && k !== HEADER.error) headers[k] = v;
        }
        headers[HEADER.replays] = (Number(headers[HEADER.replays] ?? 0) || 0) + 1;
        // Through the default exchange to the consumer's queue alone; the routing-key header keeps the event's key.
        ch.sendToQueue(names.main, msg.content, {
          persistent: true,
          messageId: msg.properties.messageId as string | undefined,
          contentType: msg.properties.contentType as string | undefined,
          timestamp: msg.properties.timestamp as number | undefined,
          headers,
        });
        await ch.waitForConfirms();
        ch.ack(msg);
        replayed += 1;
      }
      const remaining = (await ch.checkQueue(names.dlq)).messageCount;
      this.options.logger.info('dead letters replayed', { queue: names.dlq, replayed, remaining });
      return { replayed, remaining };
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  /** Closes the broker connection, if one was opened. */
  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    await (await connection?.catch(() => undefined))?.close().catch(() => undefined);
  }

  private async withChannel<T>(fn: (ch: Channel) => Promise<T>): Promise<T> {
    const conn = await this.connect();
    const ch = await conn.createChannel();
    // A queue that does not exist closes the channel with a 404; the caller handles that reply.
    ch.on('error', () => undefined);
    try {
      return await fn(ch);
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  private async connect(): Promise<ChannelModel> {
    this.connection ??= amqp.connect(this.options.url, { timeout: 5_000 }).then((conn) => {
      conn.on('error', (err: Error) =>
        this.options.logger.warn('amqp admin connection error', { error: err.message }),
      );
      conn.on('close', () => (this.connection = undefined));
      return conn;
    });
    try {
      return await this.connection;
    } catch (err) {
      this.connection = undefined;
      this.options.logger.warn('amqp admin connection failed', { error: (err as Error).message });
      throw new AppError('SERVICE_UNAVAILABLE', 'The message broker is unreachable');
    }
  }
}
