import { runService } from '@bm/platform';
import { loadMessagingConfig } from './config';
import { createMessagingService } from './messaging';

runService('messaging', () => createMessagingService(loadMessagingConfig()));
