import type { Logger, RedisClient } from '@bm/platform';
import type { AuthInvalidation } from '../domain/ports/auth-invalidation.port';

/**
 * Tells every gateway replica that API keys or plans changed (Redis pub/sub). A replica trusts its key cache
 * only while its subscription is live and unbroken since the entry was cached: a dropped subscription might
 * have missed a revocation, so `generation` moves on and every older entry is ignored.
 */
export class AuthInvalidationChannel implements AuthInvalidation {
  private subscribed = false;
  private gen = 0;
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {
    subscriber.on('message', (channel: string) => {
      if (channel === this.channel) this.changed();
    });
    subscriber.on('ready', () => void this.subscribe());
    subscriber.on('close', () => {
      this.subscribed = false;
      this.changed();
    });
  }

  /** The current generation, or undefined while the subscription cannot vouch for the cache. */
  generation(): number | undefined {
    return this.subscribed ? this.gen : undefined;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Announces a change to every replica (this one included). */
  async publish(): Promise<void> {
    this.changed();
    await this.publisher.publish(this.channel, 'changed');
  }

  close(): void {
    this.subscriber.disconnect();
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber.subscribe(this.channel);
      this.changed();
      this.subscribed = true;
    } catch (err) {
      this.logger.warn('auth invalidation subscription failed', { error: (err as Error).message });
    }
  }

  private changed(): void {
    this.gen += 1;
    for (const listener of this.listeners) listener();
  }
}
