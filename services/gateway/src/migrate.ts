import { migrateMain } from '@bm/platform';
import { loadGatewayConfig } from './config';
import { createGatewayDataSource } from './data-access/data-source';

/** Applies gateway's pending migrations (pnpm migrate, the compose migrate service, the Kubernetes Job). */
const config = loadGatewayConfig();
migrateMain('gateway', config.LOG_LEVEL, () => createGatewayDataSource(config));
