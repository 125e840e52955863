import { runService } from '@bm/platform';
import { loadGatewayConfig } from './config';
import { createGateway } from './gateway';

runService('gateway', () => createGateway(loadGatewayConfig()));
