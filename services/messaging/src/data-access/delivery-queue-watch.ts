import type { ConsumerQueueName } from '@bm/contracts';
import { queryRows, type AmqpClient } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { DeliveryQueueWatch } from '../domain/ports/message-sweep.port';

const DELIVER_QUEUE: ConsumerQueueName = 'messaging.deliver';

/**
 * Watches messaging's delivery queue for the moments it is drained. Read in this order: the oldest command still in
 * the outbox, then the queue. A command that leaves the outbox after the first read is in the queue by the second,
 * so when the queue is empty, every command issued before that oldest one (or before the first read, with none)
 * has been handed to a worker. Each replica keeps what it saw last; the broker or the database away leaves it as it
 * was.
 */
export class DeliveryQueue implements DeliveryQueueWatch {
  private drained: Date | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly amqp: Pick<AmqpClient, 'waitingIn'>,
  ) {}

  async drainedThrough(): Promise<Date | undefined> {
    try {
      const before = new Date();
      const [oldest] = await queryRows<{ created_at: Date }>(
        this.dataSource,
        'SELECT created_at FROM messaging.outbox WHERE published_at IS NULL ORDER BY id LIMIT 1',
      );
      if ((await this.amqp.waitingIn(DELIVER_QUEUE)) === 0) {
        const through = oldest && oldest.created_at < before ? oldest.created_at : before;
        if (!this.drained || through > this.drained) this.drained = through;
      }
    } catch {
      // Unseen now: what was seen last stands.
    }
    return this.drained;
  }
}
