import type { InternalService } from './routes';

/**
 * How a consumer retries. A permanent failure (invalid payload, a handler's own bug) is tried `maxDeliveries`
 * times, `retryDelayMs` apart, then dead-lettered. A transient failure (a dependency unreachable or unavailable)
 * never counts: the consumer pauses and probes again after `backoffInitialMs`, doubling (with jitter) up to
 * `backoffMaxMs`, for as long as the outage lasts.
 */
export interface RetryPolicy {
  maxDeliveries: number;
  retryDelayMs: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
}

/** The policy every consumer has unless its entry below says otherwise. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxDeliveries: 5,
  retryDelayMs: 1_000,
  backoffInitialMs: 250,
  backoffMaxMs: 30_000,
});

/** A consumer's queue: the service that consumes it and its retry policy. */
export interface ConsumerQueue {
  service: InternalService | 'gateway';
  retry: Readonly<RetryPolicy>;
}

/**
 * Every consumer queue of the platform (each with its `.retry` and `.dlq` queues, named after the AMQP prefix):
 * the one place a consumer's retry policy is set, and the list the operator's dead-letter commands
 * (`pnpm admin dlq:list`, `/admin/v1/dead-letters`) work from.
 */
export const CONSUMER_QUEUES = {
  'messaging.deliver': { service: 'messaging', retry: DEFAULT_RETRY_POLICY },
  'messaging.inbound': { service: 'messaging', retry: DEFAULT_RETRY_POLICY },
  'messaging.send-requests': { service: 'messaging', retry: DEFAULT_RETRY_POLICY },
  'messaging.opt-outs': { service: 'messaging', retry: DEFAULT_RETRY_POLICY },
  'campaign.message-statuses': { service: 'campaign', retry: DEFAULT_RETRY_POLICY },
  'campaign.opt-out-keywords': { service: 'campaign', retry: DEFAULT_RETRY_POLICY },
  'dispatcher.events': { service: 'dispatcher', retry: DEFAULT_RETRY_POLICY },
  'ingress.live-chat': { service: 'ingress', retry: DEFAULT_RETRY_POLICY },
  'ingress.template-review': { service: 'ingress', retry: DEFAULT_RETRY_POLICY },
  // The live-chat inbox's events, kept per tenant for the browsers' streams: one queue for every gateway replica.
  'gateway.inbox-events': { service: 'gateway', retry: DEFAULT_RETRY_POLICY },
} as const satisfies Record<string, ConsumerQueue>;

export type ConsumerQueueName = keyof typeof CONSUMER_QUEUES;

/** The retry policy of a consumer queue, as `AmqpClient.consume` options. */
export function retryPolicyOf(queue: ConsumerQueueName): RetryPolicy {
  return { ...CONSUMER_QUEUES[queue].retry };
}
