import request from 'supertest';
import { parseTraceparent } from '@bm/platform';
import { createTenantWithKey, useGateway } from './factories/gateway';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';

describe('trace context from the client to the internal service', () => {
  const gw = useGateway();
  let apiKey: string;

  beforeAll(async () => {
    ({ apiKey } = await createTenantWithKey(gw.url));
  });

  it("when a client sends traceparent, then the service gets the same trace id with the gateway's span as parent", async () => {
    await request(gw.url)
      .get('/api/v1/messages/7')
      .set('Authorization', `Bearer ${apiKey}`)
      .set('traceparent', `00-${TRACE_ID}-${CLIENT_SPAN}-01`)
      .expect(200);
    const forwarded = parseTraceparent(gw.messaging.calls.at(-1)?.headers.traceparent);
    expect(forwarded).toEqual({ traceId: TRACE_ID, parentSpanId: expect.any(String), flags: '01' });
    expect(forwarded?.parentSpanId).not.toBe(CLIENT_SPAN);
  });

  it('when a client sends none, then the gateway starts a trace and forwards it', async () => {
    await request(gw.url).get('/api/v1/messages/8').set('Authorization', `Bearer ${apiKey}`).expect(200);
    const forwarded = parseTraceparent(gw.messaging.calls.at(-1)?.headers.traceparent);
    expect(forwarded?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(forwarded?.traceId).not.toBe(TRACE_ID);
  });
});
