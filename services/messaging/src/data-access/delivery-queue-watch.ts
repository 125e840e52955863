import type { ConsumerQueueName } from '@bm/contracts';
import { queryRows, type AmqpClient } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { DeliveryQueueWatch } from '../domain/ports/message-sweep.port';

const DELIVER_QUEUE: ConsumerQueueName = 'messaging.deliver';

/**
 * Watches messaging's delivery queue for the moments it is drained. Read in this order: the oldest command still in
 * the outbox (past the relay's cursor), then the queue. A command that leaves the outbox after the first read is in the queue by the second,
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
        // The relay's cursor passes a row once published; rows past it are few (the relay's backlog).
        `SELECT min(o.created_at) AS created_at FROM messaging.outbox o, messaging.outbox_cursor c
          WHERE c.relay = 'relay' AND (o.txid, o.id) > (c.txid, c.id) HAVING count(*) > 0`,
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
