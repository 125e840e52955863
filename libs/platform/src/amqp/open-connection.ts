import { Socket } from 'node:net';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { Logger } from '../logger';
import type { QueueConsumer } from './queue-consumer';
import { declareExchange } from './topology';

export interface OpenedConnection {
  connection: ChannelModel;
  publisher: ConfirmChannel;
}

/**
 * Opens a connection with its confirm channel, declares the exchange and attaches every consumer; on any failure
 * the half-built connection is closed again so a retry starts clean.
 */
export async function openConnection(
  rawUrl: string,
  exchange: string,
  consumers: readonly QueueConsumer[],
  logger: Logger,
  queueExpiresMs?: number,
): Promise<OpenedConnection> {
  const url = new URL(rawUrl);
  // Heartbeats detect a half-open TCP connection in seconds instead of minutes.
  if (!url.searchParams.has('heartbeat')) url.searchParams.set('heartbeat', '10');
  const connection = await amqp.connect(url.toString(), { timeout: 5_000 });
  corkEachTurn((connection as unknown as { connection?: { stream?: unknown } }).connection?.stream);
  connection.on('error', (err: Error) => logger.warn('amqp connection error', { error: err.message }));
  try {
    const publisher = await connection.createConfirmChannel();
    publisher.on('error', (err: Error) => logger.warn('amqp publish channel error', { error: err.message }));
    await declareExchange(publisher, exchange, queueExpiresMs);
    // for..of also visits consumers registered while this loop awaits.
    for (const consumer of consumers) await consumer.attach(connection);
    return { connection, publisher };
  } catch (err) {
    await connection.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Frames written in one turn of the event loop (a batch of publishes, acks, the channels' frames the client
 * multiplexes) leave in one socket write instead of one each: the socket is corked at the turn's first write and
 * uncorked when the turn's synchronous work is done.
 */
function corkEachTurn(stream: unknown): void {
  if (!(stream instanceof Socket)) return;
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  stream.write = (...args: unknown[]) => {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    return write(...args);
  };
}

/** The broker said no (bad credentials, missing rights, topology that does not match): retrying will not help. */
export function isRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (code === 403 || code === 404 || code === 406) return true;
  return err instanceof Error && /ACCESS-REFUSED|NOT-ALLOWED/.test(err.message);
}
