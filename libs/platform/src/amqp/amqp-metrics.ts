import type { ChannelModel } from 'amqplib';
import type { ServiceMetrics } from '../metrics/service-metrics';
import type { QueueNames } from './topology';

/** How a delivery was settled: acknowledged, parked for a retry, dead-lettered, or put back unsettled. */
export type ConsumeOutcome = 'ack' | 'retry' | 'dead_letter' | 'requeue';

/** What a consumer records per delivery. */
export interface ConsumerMetrics {
  settled(queue: string, outcome: ConsumeOutcome, seconds: number): void;
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
  return {
    settled(queue, outcome, seconds) {
      consumed.inc({ queue, outcome });
      duration.observe({ queue }, seconds);
    },
  };
}

/**
 * `bm_amqp_queue_messages{queue}`: the messages waiting in each consumer's queue and dead-letter queue, read from
 * the broker at scrape time on a throwaway channel (a queue gone missing closes only that channel). The consumer
 * lag: a growing main queue means the consumers fall behind. Returns the function that stops reporting.
 */
export function reportQueueDepths(
  metrics: ServiceMetrics,
  connection: () => ChannelModel | undefined,
  queues: () => QueueNames[],
): () => void {
  return metrics.sampledGauge(
    {
      name: 'bm_amqp_queue_messages',
      help: 'Messages ready in a consumer queue or its dead-letter queue, read from the broker at scrape time',
      labelNames: ['queue'],
    },
    async () => {
      const conn = connection();
      const names = queues().flatMap((q) => [q.main, q.dlq]);
      if (!conn || names.length === 0) return [];
      const ch = await conn.createChannel();
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
    },
  );
}
