import type { Logger } from '@bm/platform';
import type { IngressConfig } from '../config';
import type { IngressMetrics } from './ingress-metrics';
import type { InboundEventStore } from './inbound-event';
import type {
  AccountDirectory,
  CustomerStops,
  ItemSender,
  PublishedItemStore,
  UnitOfWork,
} from './ingress-ports';
import type { NotificationStore } from './notification';

/** What the webhook-ingress use cases need; built once in ingress.ts. */
export interface IngressDeps {
  config: IngressConfig;
  logger: Logger;
  unitOfWork: UnitOfWork;
  events: InboundEventStore;
  items: PublishedItemStore;
  /** The broker, for the items sent before the answer (receive-webhook). */
  sender: ItemSender;
  notifications: NotificationStore;
  accounts: AccountDirectory;
  /** Absent when no campaign service is configured (`CAMPAIGN_URL` empty): stops then go by the broker only. */
  customerStops?: CustomerStops;
  metrics: IngressMetrics;
}
