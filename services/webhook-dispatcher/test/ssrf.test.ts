import request from 'supertest';
import { AddressPolicy } from '../src/domain/address-policy';
import { blockedRangeOf } from '../src/domain/blocked-ranges';
import { WebhookSender } from '../src/data-access/http/webhook-sender';
import { asTenant, newTenantId, startDispatcher, type TestDispatcher } from './factories/dispatcher';
import { settled } from './factories/monitor';
import { startReceiver, type Receiver } from './factories/receiver';

describe('SSRF safety: reserved addresses are refused at connect time', () => {
  let dispatcher: TestDispatcher;
  let receiver: Receiver;

  beforeAll(async () => {
    dispatcher = await startDispatcher();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await dispatcher.stop();
    await receiver.close();
  });

  /** The sender alone, so the connect-time guard is tested without the URL check that precedes it. */
  const post = async (allowedHosts: string, url: string) => {
    const sender = new WebhookSender(new AddressPolicy(true, allowedHosts), {
      timeoutMs: 1000,
      excerptBytes: 100,
      connectionsPerOrigin: 1,
    });
    try {
      return await sender.send(
        url,
        { 'content-type': 'application/json' },
        '{}',
        new AbortController().signal,
      );
    } finally {
      await sender.close();
    }
  };

  it('when a name resolves to a loopback address (localhost), then the delivery fails without connecting', async () => {
    const tenantId = newTenantId();
    await request(dispatcher.url)
      .put('/api/v1/webhooks/settings')
      .set(asTenant(tenantId))
      .send({ url: `http://localhost:${receiver.port}/hook` })
      .expect(200);
    const ping = await request(dispatcher.url)
      .post('/api/v1/webhooks/test')
      .set(asTenant(tenantId))
      .expect(202);
    const d = await settled(dispatcher.url, tenantId, ping.body.data.delivery_id as string);
    expect(d.status).toBe('failed');
    // A refusal does not change on retry: one attempt, no connection ever opened.
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0].error).toMatch(
      /^address_blocked: localhost resolves to (127\.0\.0\.1|::1) is a loopback address$/,
    );
    expect(receiver.connections).toBe(0);
  });

  it.each([
    [
      '127.0.0.1 without the allow-list',
      () => `http://127.0.0.1:${receiver.port}/hook`,
      /127\.0\.0\.1 is a loopback/,
    ],
    ['[::1]', () => `http://[::1]:${receiver.port}/hook`, /::1 is a loopback/],
    ['the metadata service 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data', /link-local/],
    ['a private 192.168/16 address', () => 'http://192.168.1.1/hook', /private/],
    ['a name resolving to a private address', () => `http://localhost:${receiver.port}/hook`, /loopback/],
  ])(
    'when the sender is asked to connect to %s, then it refuses before connecting',
    async (_what, url, reason) => {
      const before = receiver.connections;
      const outcome = await post('', url());
      expect(outcome).toMatchObject({
        httpStatus: null,
        retryable: false,
        error: expect.stringMatching(reason),
      });
      expect(receiver.connections).toBe(before);
    },
  );

  it('when 127.0.0.1 is allow-listed, then the sender reaches it (and only a URL written with it)', async () => {
    expect(await post('127.0.0.1', `http://127.0.0.1:${receiver.port}/ok`)).toMatchObject({
      httpStatus: 200,
    });
    expect(await post('127.0.0.1', `http://localhost:${receiver.port}/ok`)).toMatchObject({
      retryable: false,
    });
    expect(await post('localhost', `http://localhost:${receiver.port}/ok`)).toMatchObject({
      httpStatus: 200,
    });
  });

  it.each([
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['100.64.0.1', 'shared address space'],
    ['172.16.5.4', 'private'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::ffff:10.0.0.1', 'private'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['8.8.8.8', undefined],
    ['2606:4700:4700::1111', undefined],
  ])('when classifying %s, then it is %s', (address, kind) => {
    expect(blockedRangeOf(address)).toBe(kind);
  });
});
