import type { DataSource } from 'typeorm';
import type { Logger } from '@bm/platform';
import type { IngressConfig } from '../config';
import type { ChannelAccountLookup } from '../data-access/channel-account-lookup';
import type { InboundEventRepository } from '../data-access/inbound-event.repository';
import type { NotificationRepository } from '../data-access/notification.repository';
import type { PublishedItemRepository } from '../data-access/published-item.repository';
import type { IngressMetrics } from './ingress-metrics';

/** What the webhook-ingress use cases need; built once in ingress.ts. */
export interface IngressDeps {
  config: IngressConfig;
  logger: Logger;
  dataSource: DataSource;
  events: InboundEventRepository;
  items: PublishedItemRepository;
  notifications: NotificationRepository;
  accounts: ChannelAccountLookup;
  metrics: IngressMetrics;
}
