import { migrateMain } from '@bm/platform';
import { loadDispatcherConfig } from './config';
import { createDispatcherDataSource } from './data-access/data-source';

/** Applies webhook-dispatcher's pending migrations (pnpm migrate, the compose migrate service, the Kubernetes Job). */
const config = loadDispatcherConfig();
migrateMain('webhook-dispatcher', config.LOG_LEVEL, () => createDispatcherDataSource(config));
