import type { CommonConfig } from '../config';
import type { Logger } from '../logger';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { AmqpClient } from './amqp-client';

/**
 * The service's AMQP client from its common configuration (URL, name prefix, test-only queue expiry), reporting
 * its consumers to the service's metrics.
 */
export function amqpClientFor(config: CommonConfig, logger: Logger, metrics?: ServiceMetrics): AmqpClient {
  return new AmqpClient({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    logger,
    queueExpiresMs: config.AMQP_QUEUE_EXPIRES_MS,
    metrics,
  });
}
