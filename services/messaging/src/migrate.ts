import { migrateMain } from '@bm/platform';
import { loadMessagingConfig } from './config';
import { createMessagingDataSource } from './data-access/data-source';

/** Applies messaging's pending migrations (pnpm migrate, the compose migrate service, the Kubernetes Job). */
const config = loadMessagingConfig();
migrateMain('messaging', config.LOG_LEVEL, () => createMessagingDataSource(config));
