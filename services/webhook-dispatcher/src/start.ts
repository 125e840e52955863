import { runService } from '@bm/platform';
import { loadDispatcherConfig } from './config';
import { createDispatcherService } from './dispatcher';

runService('webhook-dispatcher', () => createDispatcherService(loadDispatcherConfig()));
