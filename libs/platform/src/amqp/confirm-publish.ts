import type { ConfirmChannel, Options } from 'amqplib';

/** Publishes on a confirm channel and settles on the broker's ack or nack, a closed channel, or the timeout. */
export function confirmPublish(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // A half-open connection never answers; the timeout keeps the caller (and its row locks) from waiting forever.
    const timer = setTimeout(
      () => reject(new Error(`publish not confirmed within ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      channel.publish(exchange, routingKey, content, options, (err: unknown) => {
        clearTimeout(timer);
        if (err) reject(err instanceof Error ? err : new Error('publish rejected by the broker'));
        else resolve();
      });
    } catch (err) {
      // amqplib throws synchronously when the channel is already closed.
      clearTimeout(timer);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
