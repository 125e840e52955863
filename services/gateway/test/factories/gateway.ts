import request from 'supertest';
import { runMigrations, startHttpServer, type RunningServer } from '@bm/platform';
import { migrateUnlessApplied, testEnv, uniqueSuffix } from '@bm/platform/testing';
import { checkAnswersAgainstOpenApi } from '../../../../test/support/openapi-check';
import { loadGatewayConfig } from '../../src/config';
import { createGatewayDataSource } from '../../src/data-access/data-source';
import { createGateway, type Gateway } from '../../src/gateway';
import { useFixture } from '../../../../test/support/use-fixture';
import { startFakeService, type FakeAnswer, type FakeService } from './fake-service';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestGateway {
  gateway: Gateway;
  server: RunningServer;
  url: string;
  stop(): Promise<void>;
}

let migrated: Promise<unknown> | undefined;

/** Applies the gateway's migrations once per run (they are idempotent and serialized anyway). */
export function migrateOnce(env: NodeJS.ProcessEnv): Promise<unknown> {
  migrated ??= migrateUnlessApplied(createGatewayDataSource(loadGatewayConfig(env)), runMigrations);
  return migrated;
}

/** Starts a gateway in this process on a free port against the run's own database and cache. */
export async function startGateway(overrides: Record<string, string> = {}): Promise<TestGateway> {
  const env = testEnv({ ADMIN_TOKEN, ...overrides });
  await migrateOnce(testEnv());
  const gateway = await createGateway(loadGatewayConfig(env));
  const server = await startHttpServer(gateway.app, 0, '127.0.0.1');
  // Every answer is held to the document the gateway serves; the services behind it here are stand-ins.
  checkAnswersAgainstOpenApi(server, { standInServices: true });
  return {
    gateway,
    server,
    url: server.url,
    stop: async () => {
      await server.close();
      await gateway.close();
    },
  };
}

export interface GatewayWithMessaging extends TestGateway {
  /** The stand-in messaging service behind the gateway, with the calls it received. */
  messaging: FakeService;
}

/**
 * A gateway in front of a stand-in messaging service (answering with `answer`) for the tests of the file (or
 * describe block) that calls it: see `useFixture`.
 */
export function useGateway(env: Record<string, string> = {}, answer?: FakeAnswer): GatewayWithMessaging {
  return useFixture(
    async () => {
      const messaging = await startFakeService(answer);
      const gw = await startGateway({ MESSAGING_URL: messaging.url, ...env });
      return { ...gw, messaging };
    },
    async (gw) => {
      await gw.stop();
      await gw.messaging.close();
    },
  );
}

/** A new tenant with one API key, made through the operator API. */
export async function createTenantWithKey(
  url: string,
  plan?: string,
): Promise<{ tenantId: number; apiKey: string; keyId: string }> {
  const tenant = await request(url)
    .post('/admin/v1/tenants')
    .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
    .send({ name: `tenant-${uniqueSuffix()}`, ...(plan ? { plan } : {}) })
    .expect(201);
  const tenantId = tenant.body.data.tenant_id as number;
  const key = await request(url)
    .post(`/admin/v1/tenants/${tenantId}/api-keys`)
    .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
    .expect(201);
  return { tenantId, apiKey: key.body.data.api_key as string, keyId: key.body.data.key_id as string };
}
