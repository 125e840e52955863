import type { Logger } from '../logger';
import type { ServiceMetrics } from '../metrics/service-metrics';

/** Options of the one RabbitMQ client every service uses. */
export interface AmqpClientOptions {
  url: string;
  /** Names the exchange `${prefix}.events` and every queue `${prefix}.${queue}`, so runs and stacks never meet. */
  prefix: string;
  logger: Logger;
  /** Unacknowledged deliveries per consumer (default 20). */
  prefetch?: number;
  /** Permanent handler failures before a message moves to the dead-letter queue (default 5). */
  maxDeliveries?: number;
  /** Wait between a permanent handler failure and the next attempt (default 1000 ms). */
  retryDelayMs?: number;
  /** First wait of a consumer paused by a transient failure before it probes again (default 250 ms). */
  backoffInitialMs?: number;
  /** Longest wait between the probes of an outage (default 30 s). */
  backoffMaxMs?: number;
  /** When set, queues get x-expires and the exchange auto-deletes, so leftover test topology vanishes. */
  queueExpiresMs?: number;
  /** Longest wait for a broker confirm before publish rejects (default 10 s). */
  publishTimeoutMs?: number;
  /** Upper bound of the reconnect backoff (default 5 s). */
  maxReconnectDelayMs?: number;
  /** Where consumer rates, failures, handler times and queue depths are reported; none when absent. */
  metrics?: ServiceMetrics;
}

/** What `publish` needs besides the payload; `messageId` lets consumers drop duplicates. */
export interface PublishOptions {
  messageId: string;
  headers?: Record<string, unknown>;
}

/** One delivery as a handler sees it; `attempt` starts at 1. */
export interface ConsumedMessage {
  payload: unknown;
  messageId: string;
  routingKey: string;
  headers: Record<string, unknown>;
  attempt: number;
  /**
   * The message was handled before and not acknowledged: the broker delivered it before (a consumer or its channel
   * died), or this consumer runs it again after a transient failure.
   */
  redelivered: boolean;
}

/**
 * Resolving acknowledges the message. Rejecting with a transient failure (see `isTransientFailure`) pauses the
 * consumer and tries the message again once its dependency is back, uncounted; any other rejection schedules a
 * retry or, after the last attempt, dead-letters it.
 */
export type MessageHandler = (message: ConsumedMessage) => Promise<void>;

/** Per-consumer overrides of the client's defaults (a service takes its retry policy from `CONSUMER_QUEUES`). */
export interface ConsumeOptions {
  prefetch?: number;
  maxDeliveries?: number;
  retryDelayMs?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /**
   * One consumer at a time across every process (RabbitMQ's single active consumer; the others stand by and take
   * over when it goes): deliveries are handled in the queue's order. Fixed when the queue is first declared.
   */
  singleActiveConsumer?: boolean;
}

/** The part of the client the outbox relay needs. */
export type EventPublisher = {
  publish(routingKey: string, payload: object, options: PublishOptions): Promise<void>;
  /** Publishes a payload already serialised as JSON text (the relay's stored rows), when the publisher can. */
  publishJson?(routingKey: string, json: string, options: PublishOptions): Promise<void>;
  isConnected(): boolean;
};
