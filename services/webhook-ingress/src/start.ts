import { runService } from '@bm/platform';
import { loadIngressConfig } from './config';
import { createIngressService } from './ingress';

runService('webhook-ingress', () => createIngressService(loadIngressConfig()));
