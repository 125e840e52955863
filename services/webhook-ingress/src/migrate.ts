import { migrateMain } from '@bm/platform';
import { loadIngressConfig } from './config';
import { createIngressDataSource } from './data-access/data-source';

/** Applies webhook-ingress's pending migrations (pnpm migrate, the compose migrate service, the Kubernetes Job). */
const config = loadIngressConfig();
migrateMain('webhook-ingress', config.LOG_LEVEL, () => createIngressDataSource(config));
