import { runService } from '@bm/platform';
import { loadCampaignConfig } from './config';
import { createCampaignService } from './campaign';

runService('campaign', () => createCampaignService(loadCampaignConfig()));
