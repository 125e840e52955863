import type { Channel, ConsumeMessage } from 'amqplib';

/**
 * Acknowledges a channel's deliveries in batches: the acks of one turn of the event loop go out together, as one
 * `ack(tag, allUpTo)` for the longest run of settled deliveries from the oldest unsettled one, and one ack each for
 * those past a delivery still being handled (or waiting out an outage), which a multiple ack must not cover. A
 * delivery is acknowledged only once its handler finished, as before, and at most one turn later.
 */
export class AckBatcher {
  /** Delivery tags not yet acked nor nacked, oldest first (the broker numbers them in order on a channel). */
  private tags: number[] = [];
  private head = 0;
  /** Deliveries of `tags` settled here: to ack (the message), or already acked or nacked one by one (null). */
  private readonly settled = new Map<number, ConsumeMessage | null>();
  private scheduled?: NodeJS.Immediate;

  constructor(
    private readonly channel: Channel,
    /** Runs one channel call, which throws once the channel is closed. */
    private readonly settle: (call: () => void) => void,
  ) {}

  /** A delivery arrived: it is unsettled until acked or nacked. */
  received(tag: number): void {
    this.tags.push(tag);
  }

  /** Its handler finished: ack it with the next batch. */
  ack(msg: ConsumeMessage): void {
    this.settled.set(msg.fields.deliveryTag, msg);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Nacks it now: the ack-multiples that follow must not cover it. */
  nack(msg: ConsumeMessage, requeue: boolean): void {
    this.settled.set(msg.fields.deliveryTag, null);
    this.settle(() => this.channel.nack(msg, false, requeue));
  }

  /** Sends the acks waiting. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    let upTo: ConsumeMessage | undefined;
    while (this.head < this.tags.length && this.settled.has(this.tags[this.head])) {
      const tag = this.tags[this.head];
      upTo = this.settled.get(tag) ?? upTo;
      this.settled.delete(tag);
      this.head += 1;
    }
    if (upTo !== undefined) {
      const last = upTo;
      this.settle(() => this.channel.ack(last, true));
    }
    // Past an unsettled delivery: one by one, remembered as settled so the run can pass them later.
    for (const [tag, msg] of this.settled) {
      if (msg === null) continue;
      this.settled.set(tag, null);
      this.settle(() => this.channel.ack(msg, false));
    }
    if (this.head > 1024) {
      this.tags = this.tags.slice(this.head);
      this.head = 0;
    }
  }
}
