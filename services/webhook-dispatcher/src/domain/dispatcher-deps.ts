import type { Logger, SecretBox } from '@bm/platform';
import type { DispatcherConfig } from '../config';
import type { AddressPolicy } from './address-policy';
import type { Deliveries } from './ports/deliveries.port';
import type { DeliveryLog } from './ports/delivery-log.port';
import type { Endpoints } from './ports/endpoints.port';
import type { WebhookEvents } from './ports/events.port';
import type { Retention } from './ports/retention.port';
import type { WebhookMetrics, WebhookSender } from './ports/webhook-sender.port';

/** What the dispatcher's use cases need; built once in dispatcher.ts. */
export interface DispatcherDeps {
  config: DispatcherConfig;
  logger: Logger;
  secrets: SecretBox;
  policy: AddressPolicy;
  sender: WebhookSender;
  endpoints: Endpoints;
  events: WebhookEvents;
  deliveries: Deliveries;
  deliveryLog: DeliveryLog;
  retention: Retention;
  /** Tells this replica's delivery worker that a delivery is due now (others find it on their next poll). */
  wakeWorker: () => void;
  metrics: WebhookMetrics;
}
