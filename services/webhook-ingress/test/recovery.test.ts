import { startTcpProxy, waitFor, type TcpProxy } from '@bm/platform/testing';
import { useIngress, type RunningIngress } from './factories/ingress';
import { inboundTextBody, upstreamId, wamid } from './factories/webhooks';

describe('nothing stored is lost: restarts, the database or messaging going away', () => {
  const phoneNumberId = upstreamId();
  // The main instance only stores, as one would that died before splitting what it stored.
  const ingress = useIngress({ workers: false, numbers: [phoneNumberId] });

  const eventOf = (id: string) => ingress.eventOf(id);

  it('when an event was stored but not split before the process stopped, then the next process splits it', async () => {
    const messageId = wamid();
    const res = await ingress
      .postJson(inboundTextBody(phoneNumberId, upstreamId(), 'hi', messageId))
      .expect(200);
    expect((await eventOf(res.body.data.event_id)).outcome).toBe('pending');
    expect(ingress.publishedWith('message_id', messageId)).toHaveLength(0);
    const worker = await ingress.start();
    await ingress.waitForPublished('message_id', messageId);
    expect((await eventOf(res.body.data.event_id)).outcome).toBe('processed');
    await worker.stop();
  });

  describe('when the database goes away during a POST', () => {
    let proxy: TcpProxy;
    let behindProxy: RunningIngress;

    beforeAll(async () => {
      proxy = await startTcpProxy('127.0.0.1', 5432);
      const url = new URL(ingress.databaseUrl);
      url.port = String(proxy.port);
      // Its splitter and relay lose the database too, and must carry on once it is back.
      behindProxy = await ingress.start({ DATABASE_URL: url.toString() });
    });
    afterAll(async () => {
      await behindProxy.stop();
      await proxy.close();
    });

    it('then it answers 503 so the upstream retries, and the retry is stored and split once', async () => {
      const messageId = wamid();
      const raw = JSON.stringify(
        inboundTextBody(phoneNumberId, upstreamId(), 'during the outage', messageId),
      );
      proxy.cut();
      const refused = await ingress.post(raw, { url: behindProxy.url });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) },
      });
      proxy.restore();
      await ingress.post(raw, { url: behindProxy.url }).expect(200);
      await ingress.settle();
      expect(ingress.publishedWith('message_id', messageId)).toHaveLength(1);
      expect(await ingress.storedWithBody(raw)).toBe(1);
    });
  });

  it('when messaging cannot say who owns the number, then the event waits with its error and is split once it can', async () => {
    const messageId = wamid();
    const worker = await ingress.start();
    ingress.messaging.state.down = true;
    const otherNumber = upstreamId();
    ingress.messaging.register(otherNumber);
    const res = await ingress
      .postJson(inboundTextBody(otherNumber, upstreamId(), 'hello?', messageId))
      .expect(200);
    const waiting = await waitFor(
      async () => {
        const event = await eventOf(res.body.data.event_id);
        return event.attempts >= 1 ? event : undefined;
      },
      { what: 'a failed attempt' },
    );
    expect(waiting).toMatchObject({ outcome: 'pending', last_error: expect.stringMatching(/503/) });
    ingress.messaging.state.down = false;
    await ingress.waitForPublished('message_id', messageId);
    expect((await eventOf(res.body.data.event_id)).outcome).toBe('processed');
    await worker.stop();
  });
});
