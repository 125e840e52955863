import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';

export interface Owner {
  channel_account_id: string;
  tenant_id: number;
}

const LOOKUP = /^\/internal\/v1\/channel-accounts\/by-phone-number\/([^/?]+)$/;

/** Messaging's account lookup over real HTTP, knowing the numbers a test registers; it can be made to fail. */
export async function startFakeMessaging() {
  const owners = new Map<string, Owner>();
  const state = { down: false, calls: 0 };
  const server = createServer((req, res) => {
    state.calls += 1;
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const match = LOOKUP.exec(req.url ?? '');
    if (req.headers['x-internal-token'] !== testEnv().INTERNAL_TOKEN) {
      return answer(401, { success: false, error: { code: 'INVALID_API_KEY', message: 'no' } });
    }
    if (state.down)
      return answer(503, { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } });
    const owner = match ? owners.get(decodeURIComponent(match[1])) : undefined;
    if (owner) return answer(200, { success: true, data: owner });
    return answer(404, { success: false, error: { code: 'CHANNEL_ACCOUNT_NOT_FOUND', message: 'unknown' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    /** Makes a number known to "messaging" under a tenant (a new one unless given). */
    register(phoneNumberId: string, tenantId = 1 + Math.floor(Math.random() * 1e9)): Owner {
      const owner = { channel_account_id: `ACC${uniqueSuffix()}`, tenant_id: tenantId };
      owners.set(phoneNumberId, owner);
      return owner;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type FakeMessaging = Awaited<ReturnType<typeof startFakeMessaging>>;
