import type { Channel, ChannelModel, ConsumeMessage, Options } from 'amqplib';
import { serviceNameOf, type Logger } from '../logger';
import { exportSpan, spanExportConfigured } from '../tracing/span-export';
import { continueTrace, runWithTrace, TRACEPARENT } from '../tracing/trace-context';
import { isTransientFailure } from '../transient-failure';
import { AckBatcher } from './ack-batcher';
import type { MessageHandler } from './amqp.types';
import type { ConsumeOutcome, ConsumerMetrics } from './amqp-metrics';
import { OutageGate, type Backoff, type Turn } from './outage-gate';
import { HEADER, declareConsumerQueues, toHandlerMessage, type QueueNames } from './topology';

export interface QueueConsumerSettings {
  names: QueueNames;
  exchange: string;
  bindingKeys: string[];
  handler: MessageHandler;
  prefetch: number;
  /** Permanent failures before the message is dead-lettered. */
  maxDeliveries: number;
  /** Wait between the attempts of a permanent failure. */
  retryDelayMs: number;
  /** Waits between the probes of an outage (transient failures), which never count toward maxDeliveries. */
  backoff: Backoff;
  queueExpiresMs?: number;
  singleActiveConsumer?: boolean;
  logger: Logger;
  metrics?: ConsumerMetrics;
  /** Publishes to a queue through the client's confirm channel; resolves once the broker confirmed. */
  sendToQueue: (queue: string, content: Buffer, options: Options.Publish) => Promise<void>;
  /** Called when the channel dies on its own, so the client rebuilds the connection and this consumer. */
  onChannelLost: () => void;
}

/**
 * One registered consumer: its own channel (own prefetch), ack after the handler. A transient failure (a
 * dependency unavailable) pauses the consumer behind its outage gate and the delivery is tried again, unacked and
 * uncounted, once a probe finds the dependency back; a permanent failure goes to the retry queue and, after
 * maxDeliveries attempts, to the DLQ.
 */
export class QueueConsumer {
  private channel?: Channel;
  private consumerTag?: string;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Channels closed under us: a delivery of one is redelivered by the broker, so it is not run again here. */
  private readonly lost = new WeakSet<Channel>();
  /** Each channel's acks, sent in batches. */
  private readonly acks = new WeakMap<Channel, AckBatcher>();
  private readonly gate: OutageGate;
  /** Where consumer spans go when span export is on (decided once: nothing is built per message otherwise). */
  private readonly spanService: string | undefined;

  constructor(private readonly s: QueueConsumerSettings) {
    this.spanService = spanExportConfigured() ? serviceNameOf(s.logger) : undefined;
    const queue = s.names.main;
    // The series exists from the start, so a dashboard or an alert sees 0 rather than nothing.
    s.metrics?.paused(queue, false);
    this.gate = new OutageGate(s.backoff, {
      paused: (retryInMs) => {
        s.logger.warn('amqp consumer paused: a dependency is unavailable', { queue, retryInMs });
        s.metrics?.paused(queue, true);
      },
      probing: (failures, retryInMs) =>
        s.logger.warn('amqp consumer still paused: the dependency is still unavailable', {
          queue,
          failures,
          retryInMs,
        }),
      resumed: (pausedMs, released) => {
        s.logger.info('amqp consumer resumed', { queue, pausedMs, released });
        s.metrics?.paused(queue, false);
      },
    });
  }

  /** True while a transient failure holds this consumer's new work back. */
  get isPaused(): boolean {
    return this.gate.isPaused;
  }

  /** The consumer's queue, retry queue and dead-letter queue. */
  get names(): QueueNames {
    return this.s.names;
  }

  /** Declares the queues on a fresh channel of the connection and starts consuming. */
  async attach(connection: ChannelModel): Promise<void> {
    const ch = await connection.createChannel();
    ch.on('error', (err: Error) =>
      this.s.logger.warn('amqp consumer channel error', { queue: this.s.names.main, error: err.message }),
    );
    await ch.prefetch(this.s.prefetch);
    this.acks.set(ch, new AckBatcher(ch, (call) => this.settle(call)));
    await declareConsumerQueues(
      ch,
      this.s.exchange,
      this.s.names,
      this.s.bindingKeys,
      this.s.queueExpiresMs,
      {
        singleActiveConsumer: this.s.singleActiveConsumer,
      },
    );
    const { consumerTag } = await ch.consume(this.s.names.main, (msg) => this.onDelivery(ch, msg), {
      noAck: false,
    });
    this.channel = ch;
    this.consumerTag = consumerTag;
    ch.on('close', () => {
      this.lost.add(ch);
      if (this.channel !== ch) return;
      this.gate.abandonWaiting();
      this.channel = undefined;
      if (!this.stopping) this.s.onChannelLost();
    });
  }

  /** Forgets the channel after the connection dropped; unacked messages come back on the next connection. */
  detach(): void {
    if (this.channel) this.lost.add(this.channel);
    this.channel = undefined;
    this.gate.abandonWaiting();
  }

  /** Stops taking deliveries, waits for running handlers to finish (and ack), then closes the channel. */
  async stop(): Promise<void> {
    this.stopping = true;
    const ch = this.channel;
    if (ch && this.consumerTag) await ch.cancel(this.consumerTag).catch(() => undefined);
    // Deliveries waiting out an outage are not run: closing the channel puts them back in the queue.
    this.gate.close();
    await Promise.allSettled([...this.inFlight]);
    // The last handlers' acks go out before the channel closes, or their messages would come again.
    if (ch) this.acks.get(ch)?.flush();
    this.channel = undefined;
    // Closing requeues deliveries that arrived after the cancel and were never started.
    if (ch) await ch.close().catch(() => undefined);
  }

  private onDelivery(ch: Channel, msg: ConsumeMessage | null): void {
    if (msg === null) {
      // The broker cancelled us (queue deleted): rebuild so the queue is declared again.
      this.s.logger.warn('amqp consumer cancelled by broker', { queue: this.s.names.main });
      if (this.channel === ch) this.s.onChannelLost();
      return;
    }
    if (this.stopping) return;
    this.acks.get(ch)?.received(msg.fields.deliveryTag);
    const work = this.process(ch, msg)
      .catch((err: Error) => {
        this.s.logger.error('amqp delivery failed', { queue: this.s.names.main, error: err.message });
      })
      .finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  private async process(ch: Channel, msg: ConsumeMessage): Promise<void> {
    const started = process.hrtime.bigint();
    const outcome = await this.handle(ch, msg);
    this.s.metrics?.settled(this.s.names.main, outcome, Number(process.hrtime.bigint() - started) / 1e9);
  }

  private async handle(ch: Channel, msg: ConsumeMessage): Promise<ConsumeOutcome> {
    const message = toHandlerMessage(msg);
    if (message === undefined) {
      // Not JSON: no retry can help, so straight to the dead-letter queue.
      return this.settleFailure(
        ch,
        msg,
        this.s.maxDeliveries,
        msg.fields.routingKey,
        new Error('content is not JSON'),
      );
    }
    // The handler's logs and the events it emits continue the publisher's trace, as a span of their own.
    const trace = continueTrace(message.headers[TRACEPARENT]);
    const startMs = performance.timeOrigin + performance.now();
    const service = this.spanService;
    const span = (error?: string) =>
      service !== undefined &&
      exportSpan({
        service,
        trace,
        name: `${message.routingKey} process`,
        kind: 'consumer',
        startMs,
        endMs: performance.timeOrigin + performance.now(),
        attributes: {
          'messaging.system': 'rabbitmq',
          'messaging.operation.type': 'process',
          'messaging.destination.name': this.s.names.main,
          'messaging.rabbitmq.destination.routing_key': message.routingKey,
        },
        error,
      });
    for (;;) {
      const turn = await this.gate.turn();
      if (turn === undefined) return 'requeue';
      if (this.stopping || this.lost.has(ch)) {
        this.gate.passOn(turn);
        return 'requeue';
      }
      try {
        await runWithTrace(trace, () => this.s.handler(message));
      } catch (err) {
        if (isTransientFailure(err)) {
          this.onTransientFailure(turn, msg, err);
          // Run again, as if delivered again: the handler may have got as far as a commit whose answer was lost.
          message.redelivered = true;
          continue;
        }
        span(err instanceof Error ? err.message : String(err));
        this.gate.passOn(turn);
        return this.settleFailure(ch, msg, message.attempt, message.routingKey, err);
      }
      span();
      this.gate.succeeded();
      this.ack(ch, msg);
      return 'ack';
    }
  }

  /** Waits out the outage: the delivery stays unacked and uncounted, and runs again when its turn comes. */
  private onTransientFailure(turn: Turn, msg: ConsumeMessage, err: unknown): void {
    this.s.metrics?.transient(this.s.names.main);
    this.s.logger.debug('amqp handler failed transiently, waiting for the dependency', {
      queue: this.s.names.main,
      messageId: msg.properties.messageId as unknown,
      error: err instanceof Error ? err.message : String(err),
    });
    this.gate.failedTransiently(turn);
  }

  private async settleFailure(
    ch: Channel,
    msg: ConsumeMessage,
    attempt: number,
    routingKey: string,
    err: unknown,
  ): Promise<ConsumeOutcome> {
    const error = err instanceof Error ? err.message : String(err);
    const final = attempt >= this.s.maxDeliveries;
    const { names, logger } = this.s;
    const log = {
      queue: names.main,
      messageId: msg.properties.messageId as unknown,
      routingKey,
      attempt,
      error,
    };
    if (final) logger.error('amqp handler failed for the last time, dead-lettering', log);
    else logger.warn('amqp handler failed, will retry', { ...log, retryInMs: this.s.retryDelayMs });
    const p = msg.properties;
    const options: Options.Publish = {
      persistent: true,
      messageId: p.messageId as string | undefined,
      contentType: p.contentType as string | undefined,
      timestamp: p.timestamp as number | undefined,
      headers: {
        ...(p.headers ?? {}),
        [HEADER.attempt]: final ? attempt : attempt + 1,
        [HEADER.routingKey]: routingKey,
        [HEADER.error]: error.slice(0, 1000),
      },
      // The retry queue dead-letters the copy back to the main queue once this expires: a delay without a timer.
      expiration: final ? undefined : String(this.s.retryDelayMs),
    };
    try {
      await this.s.sendToQueue(final ? names.dlq : names.retry, msg.content, options);
    } catch (sendErr) {
      // Could not park the copy: keep the original, put it back after the delay (the attempt is not counted).
      logger.warn('amqp could not schedule retry', { queue: names.main, error: (sendErr as Error).message });
      await new Promise((r) => setTimeout(r, this.s.retryDelayMs));
      this.acks.get(ch)?.nack(msg, true);
      return 'requeue';
    }
    this.ack(ch, msg);
    return final ? 'dead_letter' : 'retry';
  }

  private ack(ch: Channel, msg: ConsumeMessage): void {
    this.acks.get(ch)?.ack(msg);
  }

  private settle(fn: () => void): void {
    try {
      fn();
    } catch {
      // The channel closed under us; the broker redelivers the message, and consumers are idempotent.
      this.s.logger.debug('amqp ack on a closed channel skipped', { queue: this.s.names.main });
    }
  }
}
