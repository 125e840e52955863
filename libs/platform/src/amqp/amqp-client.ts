import type { ChannelModel, ConfirmChannel, Options } from 'amqplib';
import type {
  AmqpClientOptions,
  ConsumeOptions,
  EventPublisher,
  MessageHandler,
  PublishOptions,
} from './amqp.types';
import {
  consumerMetrics,
  publisherMetrics,
  readDepths,
  reportQueueDepths,
  type ConsumerMetrics,
} from './amqp-metrics';
import { withTraceparent } from '../tracing/trace-context';
import { confirmPublish } from './confirm-publish';
import { QueueConsumer } from './queue-consumer';
import { isRefusal, openConnection } from './open-connection';
import { queueNames } from './topology';

/**
 * The one RabbitMQ client of every service: confirmed persistent publishes to `${prefix}.events`, consumers with
 * ack after the handler, delayed retries and a DLQ, and reconnection that rebuilds topology and consumers.
 * While disconnected, `publish` rejects at once (the outbox relay retries on its next pass).
 */
export class AmqpClient implements EventPublisher {
  /** The durable topic exchange this client publishes to and binds from. */
  readonly exchange: string;
  private connection?: ChannelModel;
  private publisher?: ConfirmChannel;
  private readonly consumers: QueueConsumer[] = [];
  private connecting?: Promise<void>;
  private closing?: Promise<void>;
  private failures = 0;
  private everConnected = false;
  private wake?: () => void;
  private readonly metrics?: ConsumerMetrics;
  private readonly publishes?: { confirmed(): void };
  private readonly stopReportingDepths?: () => void;

  constructor(private readonly options: AmqpClientOptions) {
    this.exchange = options.prefix ? `${options.prefix}.events` : 'events';
    if (options.metrics) {
      this.metrics = consumerMetrics(options.metrics);
      this.publishes = publisherMetrics(options.metrics);
      this.stopReportingDepths = reportQueueDepths(
        options.metrics,
        () => this.connection,
        () => this.consumers.map((c) => c.names),
      );
    }
  }

  /**
   * Connects and declares the topology, retrying with backoff until the broker answers or `close()` is called;
   * rejects at once when the broker refuses the first connection (credentials, mismatching topology).
   */
  connect(): Promise<void> {
    this.connecting ??= this.connectLoop().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** True while a connection and its confirm channel are open; for health checks. */
  isConnected(): boolean {
    return this.publisher !== undefined;
  }

  /** The readiness check of a process that consumes or relays: resolves while connected. */
  readonly ready = (): Promise<void> =>
    this.isConnected() ? Promise.resolve() : Promise.reject(new Error('amqp not connected'));

  /**
   * Publishes a persistent JSON message, with the current trace's `traceparent` unless the headers carry one;
   * resolves once the broker confirmed it, rejects when not connected.
   */
  async publish(routingKey: string, payload: object, { messageId, headers }: PublishOptions): Promise<void> {
    await this.publishJson(routingKey, JSON.stringify(payload), { messageId, headers });
  }

  /** `publish` of a payload already serialised as JSON text (an outbox row as stored), sent as it is. */
  async publishJson(routingKey: string, json: string, { messageId, headers }: PublishOptions): Promise<void> {
    if (!messageId) throw new Error('publish needs a messageId');
    const content = Buffer.from(json);
    await this.send(this.exchange, routingKey, content, {
      persistent: true,
      contentType: 'application/json',
      messageId,
      timestamp: Math.floor(Date.now() / 1000),
      headers: withTraceparent(headers),
    });
  }

  /**
   * Registers a consumer of `${prefix}.${queue}` bound to the exchange with the given keys; it is declared now when
   * connected (resolving once consuming) and again after every reconnect.
   */
  async consume(
    queue: string,
    bindingKeys: string[],
    handler: MessageHandler,
    opts: ConsumeOptions = {},
  ): Promise<void> {
    if (this.closing) throw new Error('amqp client is closed');
    const o = this.options;
    const consumer = new QueueConsumer({
      names: queueNames(o.prefix, queue),
      exchange: this.exchange,
      bindingKeys,
      handler,
      prefetch: opts.prefetch ?? o.prefetch ?? 20,
      maxDeliveries: opts.maxDeliveries ?? o.maxDeliveries ?? 5,
      retryDelayMs: opts.retryDelayMs ?? o.retryDelayMs ?? 1000,
      backoff: {
        initialMs: opts.backoffInitialMs ?? o.backoffInitialMs ?? 250,
        maxMs: opts.backoffMaxMs ?? o.backoffMaxMs ?? 30_000,
      },
      queueExpiresMs: o.queueExpiresMs,
      singleActiveConsumer: opts.singleActiveConsumer,
      logger: o.logger,
      metrics: this.metrics,
      sendToQueue: (q, content, options) => this.send('', q, content, options),
      onChannelLost: () => this.dropConnection(),
    });
    this.consumers.push(consumer);
    if (!this.connection) return; // declared by the connect in progress or the next one
    try {
      await consumer.attach(this.connection);
    } catch (err) {
      this.consumers.splice(this.consumers.indexOf(consumer), 1);
      throw err;
    }
  }

  /**
   * The messages waiting in `${prefix}.${queue}` and its retry queue, not yet handed to a consumer; rejects when not
   * connected or when either queue cannot be read.
   */
  async waitingIn(queue: string): Promise<number> {
    const names = queueNames(this.options.prefix, queue);
    const depths = await readDepths(this.connection, [names.main, names.retry]);
    if (depths.length < 2) throw new Error(`queue ${names.main} could not be read`);
    return depths[0].value + depths[1].value;
  }

  /**
   * Stops the consumers and waits for their running handlers (and acks); publishing goes on until `close()`, so a
   * service can drain what its handlers started and relay its outbox before the connection closes.
   */
  async stopConsuming(): Promise<void> {
    await Promise.all(this.consumers.splice(0).map((c) => c.stop()));
  }

  /** Stops consumers, waits for running handlers, then closes the connection; never reconnects afterwards. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopReportingDepths?.();
      this.wake?.();
      await this.connecting?.catch(() => undefined);
      await Promise.all(this.consumers.map((c) => c.stop()));
      const connection = this.connection;
      this.connection = undefined;
      this.publisher = undefined;
      await connection?.close().catch(() => undefined);
    })();
    return this.closing;
  }

  private async send(exchange: string, routingKey: string, content: Buffer, options: Options.Publish) {
    const channel = this.publisher;
    if (!channel) throw new Error('amqp not connected');
    await confirmPublish(
      channel,
      exchange,
      routingKey,
      content,
      options,
      this.options.publishTimeoutMs ?? 10_000,
    );
    this.publishes?.confirmed();
  }

  private async connectLoop(): Promise<void> {
    while (!this.closing && !this.connection) {
      try {
        await this.open();
        this.failures = 0;
      } catch (err) {
        // At start-up a refusal is a configuration error: fail loudly instead of retrying forever.
        if (!this.everConnected && isRefusal(err)) throw err;
        this.failures += 1;
        const delay = this.backoff();
        this.options.logger.warn('amqp connect failed', { error: (err as Error).message, retryInMs: delay });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => (clearTimeout(timer), resolve());
        });
      }
    }
  }

  private async open(): Promise<void> {
    const o = this.options;
    const opened = await openConnection(o.url, this.exchange, this.consumers, o.logger, o.queueExpiresMs);
    if (this.closing) {
      await opened.connection.close().catch(() => undefined);
      return;
    }
    this.connection = opened.connection;
    this.publisher = opened.publisher;
    this.everConnected = true;
    opened.connection.on('close', () => this.onConnectionClosed(opened.connection));
    opened.publisher.on('close', () => this.dropConnection());
    o.logger.info('amqp connected', { exchange: this.exchange, consumers: this.consumers.length });
  }

  private onConnectionClosed(connection: ChannelModel): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.publisher = undefined;
    for (const consumer of this.consumers) consumer.detach();
    if (this.closing) return;
    this.options.logger.warn('amqp connection lost, reconnecting');
    this.connect().catch((err: Error) =>
      this.options.logger.error('amqp reconnect stopped', { error: err.message }),
    );
  }

  /** A channel died on its own: rebuild everything through a fresh connection. */
  private dropConnection(): void {
    if (this.closing || !this.connection) return;
    this.connection.close().catch(() => undefined);
  }

  private backoff(): number {
    const max = this.options.maxReconnectDelayMs ?? 5_000;
    const base = Math.min(max, 200 * 2 ** (this.failures - 1));
    return Math.round(base / 2 + (Math.random() * base) / 2); // jitter so replicas do not reconnect in lockstep
  }
}
