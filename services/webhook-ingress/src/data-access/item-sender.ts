import type { EventPublisher, Logger } from '@bm/platform';
import { itemMessage, type ItemSender, type OutgoingItem } from '../domain/ingress-ports';

/**
 * Sends items to the broker before the webhook is answered, each a persistent message confirmed by the broker,
 * all issued back to back and confirmed together. A broker that is away answers false at once; one that does not
 * confirm within `timeoutMs` (blocked, or a connection dying) answers false then, and the caller stores the items
 * in the outbox instead: a confirm arriving later makes an item go out twice, which its consumer ignores.
 */
export class BrokerItemSender implements ItemSender {
  constructor(
    private readonly amqp: EventPublisher,
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  async send(items: OutgoingItem[]): Promise<boolean> {
    if (items.length === 0) return true;
    if (!this.amqp.isConnected()) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.timeoutMs);
    });
    const confirmed = Promise.all(
      items.map((o) =>
        this.amqp.publish(o.item.routingKey, itemMessage(o), {
          messageId: o.item.payload.event_id,
          headers: {},
        }),
      ),
    ).then(
      () => 'confirmed' as const,
      (err: unknown) => err as Error,
    );
    try {
      const outcome = await Promise.race([confirmed, late]);
      if (outcome === 'confirmed') return true;
      this.logger.warn('inbound items not confirmed by the broker, stored in the outbox instead', {
        items: items.length,
        error: outcome === 'late' ? `no confirm within ${this.timeoutMs} ms` : outcome.message,
      });
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
