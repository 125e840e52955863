import type { Logger, SecretBox } from '@bm/platform';
import type { DispatcherConfig } from '../config';
import type { DeliveryLogRepository } from '../data-access/delivery-log.repository';
import type { DeliveryRepository } from '../data-access/delivery.repository';
import type { EndpointRepository } from '../data-access/endpoint.repository';
import type { EventRepository } from '../data-access/event.repository';
import type { WebhookMetrics } from '../data-access/http/webhook-metrics';
import type { WebhookSender } from '../data-access/http/webhook-sender';
import type { RetentionRepository } from '../data-access/retention.repository';
import type { AddressPolicy } from './address-policy';

/** What the dispatcher's use cases need; built once in dispatcher.ts. */
export interface DispatcherDeps {
  config: DispatcherConfig;
  logger: Logger;
  secrets: SecretBox;
  policy: AddressPolicy;
  sender: WebhookSender;
  endpoints: EndpointRepository;
  events: EventRepository;
  deliveries: DeliveryRepository;
  deliveryLog: DeliveryLogRepository;
  retention: RetentionRepository;
  /** Tells this replica's delivery worker that a delivery is due now (others find it on their next poll). */
  wakeWorker: () => void;
  metrics: WebhookMetrics;
}
