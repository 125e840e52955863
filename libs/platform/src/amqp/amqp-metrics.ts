import type { ChannelModel } from 'amqplib';
import type { ServiceMetrics } from '../metrics/service-metrics';
import type { QueueNames } from './topology';

/** How a delivery was settled: acknowledged, parked for a retry, dead-lettered, or put back unsettled. */
export type ConsumeOutcome = 'ack' | 'retry' | 'dead_letter' | 'requeue';

/** What a consumer records per delivery. */
export interface ConsumerMetrics {
  settled(queue: string, outcome: ConsumeOutcome, seconds: number): void;
  /** A handler failed transiently (a dependency unavailable); the delivery waits and is tried again. */
  transient(queue: string): void;
  /** The consumer paused for an outage, or resumed. */
  paused(queue: string, paused: boolean): void;
}

/** The consumer series of a service: deliveries by queue and outcome, and handler time by queue. */
export function consumerMetrics(metrics: ServiceMetrics): ConsumerMetrics {
  const consumed = metrics.counter({
    name: 'bm_amqp_messages_consumed_total',
    help: 'Deliveries handled by a consumer, by queue and outcome (ack, retry, dead_letter, requeue)',
    labelNames: ['queue', 'outcome'],
  });
  const duration = metrics.histogram({
    name: 'bm_amqp_handler_duration_seconds',
    help: 'Time a consumer took from delivery to settling it, by queue',
    labelNames: ['queue'],
  });
  const transient = metrics.counter({
    name: 'bm_amqp_transient_failures_total',
    help: 'Handler failures caused by an unavailable dependency, waited out without counting toward the DLQ',
    labelNames: ['queue'],
  });
  const paused = metrics.gauge({
    name: 'bm_amqp_consumer_paused',
    help: '1 while a consumer holds new work back because a dependency is unavailable, else 0',
    labelNames: ['queue'],
  });
  return {
    settled(queue, outcome, seconds) {
      consumed.inc({ queue, outcome });
      duration.observe({ queue }, seconds);
    },
    transient(queue) {
      transient.inc({ queue });
    },
    paused(queue, isPaused) {
      paused.set({ queue }, isPaused ? 1 : 0);
    },
  };
}

/** Counts the messages a client published, each once the broker confirmed it (relays and direct publishes alike). */
export function publisherMetrics(metrics: ServiceMetrics): { confirmed(): void } {
  const published = metrics.counter({
    name: 'bm_amqp_messages_published_total',
    help: 'Messages published to the broker and confirmed by it',
  });
  return { confirmed: () => published.inc() };
}

/** The ready messages of each named queue, read on a throwaway channel (a queue gone missing closes only it). */
export async function readDepths(
  connection: ChannelModel | undefined,
  names: string[],
): Promise<Array<{ labels: { queue: string }; value: number }>> {
  if (!connection || names.length === 0) return [];
  const ch = await connection.createChannel();
  ch.on('error', () => undefined);
  const samples = [];
  try {
    for (const queue of names) {
      const { messageCount } = await ch.checkQueue(queue);
      samples.push({ labels: { queue }, value: messageCount });
    }
  } catch {
    // A queue that vanished (expired, deleted) closes the channel: report what was read before it.
  } finally {
    await ch.close().catch(() => undefined);
  }
  return samples;
}

/**
 * Two gauges read from the broker at scrape time. `bm_amqp_queue_messages{queue}`: the messages waiting in each
 * consumer's queue and dead-letter queue, the consumer lag (a growing main queue means the consumers fall
 * behind). `bm_amqp_dead_letter_messages{queue}`: one series per dead-letter queue, the parked work an operator
 * inspects and replays (`pnpm admin dlq:list`); anything above 0 is worth an alert. Returns the function that
 * stops reporting.
 */
export function reportQueueDepths(
  metrics: ServiceMetrics,
  connection: () => ChannelModel | undefined,
  queues: () => QueueNames[],
): () => void {
  const stopDepths = metrics.sampledGauge(
    {
      name: 'bm_amqp_queue_messages',
      help: 'Messages ready in a consumer queue or its dead-letter queue, read from the broker at scrape time',
      labelNames: ['queue'],
    },
    () =>
      readDepths(
        connection(),
        queues().flatMap((q) => [q.main, q.dlq]),
      ),
  );
  const stopDeadLetters = metrics.sampledGauge(
    {
      name: 'bm_amqp_dead_letter_messages',
      help: 'Messages parked in a dead-letter queue (failed permanently), read from the broker at scrape time',
      labelNames: ['queue'],
    },
    () =>
      readDepths(
        connection(),
        queues().map((q) => q.dlq),
      ),
  );
  return () => {
    stopDepths();
    stopDeadLetters();
  };
}
