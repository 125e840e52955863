import request from 'supertest';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { runMigrations, startHttpServer } from '@bm/platform';
import { migrateUnlessApplied, testEnv } from '@bm/platform/testing';
import { loadIngressConfig } from '../../services/webhook-ingress/src/config';
import { createIngressDataSource } from '../../services/webhook-ingress/src/data-access/data-source';
import { createIngressService, type IngressService } from '../../services/webhook-ingress/src/ingress';
import { registerSecret } from './secrets';
import type { Stack } from './stack';

let migrated: Promise<void> | undefined;

/** webhook-ingress's migrations in the run's database, once per run (a later file finds them applied). */
export function migrateIngress(): Promise<void> {
  migrated ??= migrateUnlessApplied(createIngressDataSource(loadIngressConfig(testEnv())), runMigrations);
  return migrated;
}

export interface IngressFixture {
  url: string;
  service: IngressService;
  /** Headers of a call from the gateway: its credential and, for the tenant API, the tenant. */
  internal(tenantId?: number): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * webhook-ingress in this process beside a stack from `startStack()`: it asks the stack's messaging who owns a
 * number, and the stack's sandbox sends its signed webhooks (statuses 50/100/150 ms after a send) to it.
 */
export async function startIngress(stack: Stack, env: Record<string, string> = {}): Promise<IngressFixture> {
  await migrateIngress();
  const config = loadIngressConfig(
    testEnv({
      MESSAGING_URL: stack.messagingUrl,
      // Customers' stops go to the stack's campaign service before the answer, when it has one.
      CAMPAIGN_URL: stack.campaignUrl ?? '',
      INGRESS_PROCESS_INTERVAL_MS: '50',
      ...env,
    }),
  );
  registerSecret('app secret', config.INGRESS_APP_SECRET);
  registerSecret('previous app secret', config.INGRESS_APP_SECRET_PREVIOUS);
  registerSecret('verify token', config.INGRESS_VERIFY_TOKEN);
  registerSecret('internal token', config.INTERNAL_TOKEN);
  const service = await createIngressService(config);
  await service.startWorkers();
  const server = await startHttpServer(service.app, 0, '127.0.0.1');
  await request(stack.sandboxUrl)
    .put('/_sandbox/config')
    .send({ webhook_url: `${server.url}/api/webhooks/channel`, status_delays_ms: [50, 100, 150] })
    .expect(200);
  return {
    url: server.url,
    service,
    internal: (tenantId) => ({
      [INTERNAL_HEADERS.token]: config.INTERNAL_TOKEN,
      ...(tenantId === undefined ? {} : { [INTERNAL_HEADERS.tenantId]: String(tenantId) }),
    }),
    stop: async () => {
      await server.close();
      await service.close();
    },
  };
}
