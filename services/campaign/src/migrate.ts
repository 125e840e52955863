import { migrateMain } from '@bm/platform';
import { loadCampaignConfig } from './config';
import { createCampaignDataSource } from './data-access/data-source';

/** Applies the campaign service's pending migrations (pnpm migrate, the compose migrate service, the Kubernetes Job). */
const config = loadCampaignConfig();
migrateMain('campaign', config.LOG_LEVEL, () => createCampaignDataSource(config));
