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

/*
 * Every spelling of a loopback, link-local, private or otherwise reserved address that URL parsing or a resolver
 * can hand over: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`) and IPv4-compatible
 * (`::a.b.c.d`) forms, dotted or in hex, compressed or not, upper case, with a zone id.
 */
const RESERVED_SPELLINGS: Array<[address: string, kind: RegExp]> = [
  ['::1', /loopback/],
  ['0:0:0:0:0:0:0:1', /loopback/],
  ['::127.0.0.1', /loopback/],
  ['::7f00:1', /loopback/],
  ['0:0:0:0:0:0:7f00:1', /loopback/],
  ['::ffff:127.0.0.1', /loopback/],
  ['::ffff:7f00:1', /loopback/],
  ['0:0:0:0:0:FFFF:7F00:1', /loopback/],
  ['::ffff:0:127.0.0.1', /loopback/],
  ['::ffff:0:7f00:1', /loopback/],
  ['::ffff:127.9.9.9', /loopback/],
  ['::a9fe:a9fe', /link-local/],
  ['::169.254.169.254', /link-local/],
  ['::ffff:169.254.169.254', /link-local/],
  ['::ffff:a9fe:a9fe', /link-local/],
  ['::ffff:0:a9fe:a9fe', /link-local/],
  ['::ffff:0:169.254.169.254', /link-local/],
  ['fe80::1', /link-local/],
  ['FE80::a9fe:a9fe', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['::a00:1', /private/],
  ['::10.0.0.1', /private/],
  ['::ffff:a00:1', /private/],
  ['::ffff:0:a00:1', /private/],
  ['::ffff:c0a8:101', /private/],
  ['::ffff:0:192.168.1.1', /private/],
  ['::ac10:1', /private/],
  ['fd00::1', /unique-local/],
  ['::', /unspecified/],
  ['0:0:0:0:0:0:0:0', /unspecified/],
  ['::ffff:0.0.0.0', /unspecified/],
  ['::0.0.0.0', /unspecified/],
  // Public IPv4 hosts in the compatible and translated forms are reserved space all the same.
  ['::8.8.8.8', /reserved/],
  ['::ffff:0:808:808', /reserved/],
  ['::1:0:0:0', /reserved/],
  ['64:ff9b::7f00:1', /translated/],
];

describe('SSRF safety: IPv4 embedded in IPv6 (production policy, no allow-list)', () => {
  let dispatcher: TestDispatcher;
  let receiver: Receiver;

  beforeAll(async () => {
    // API only: a dispatcher that never delivers may run with its own policy, here production's.
    dispatcher = await startDispatcher(
      { DISPATCHER_ALLOW_HTTP: 'false', DISPATCHER_ALLOWED_HOSTS: '' },
      { workers: false },
    );
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await dispatcher.stop();
    await receiver.close();
  });

  it.each(RESERVED_SPELLINGS)('when classifying %s, then it is refused as %s', (address, kind) => {
    expect(blockedRangeOf(address)).toMatch(kind);
  });

  it.each([['::ffff:8.8.8.8'], ['::ffff:808:808'], ['2606:4700:4700::1111']])(
    'when classifying the public %s, then it is allowed',
    (address) => {
      expect(blockedRangeOf(address)).toBeUndefined();
    },
  );

  it('when a webhook URL is saved with any reserved spelling, then 422 names the url and its range', async () => {
    const tenantId = newTenantId();
    const refused: string[] = [];
    for (const [address, kind] of RESERVED_SPELLINGS.filter(([a]) => !a.includes('%'))) {
      const res = await request(dispatcher.url)
        .put('/api/v1/webhooks/settings')
        .set(asTenant(tenantId))
        .send({ url: `https://[${address}]/hook` });
      const error = res.body.error as {
        code: string;
        details: { errors: Array<{ field: string; message: string }> };
      };
      if (
        res.status === 422 &&
        error.code === 'VALIDATION_ERROR' &&
        error.details.errors[0].field === 'url'
      ) {
        expect([address, error.details.errors[0].message]).toEqual([address, expect.stringMatching(kind)]);
        refused.push(address);
      }
    }
    expect(refused).toEqual(RESERVED_SPELLINGS.map(([a]) => a).filter((a) => !a.includes('%')));
    // A public IPv4-mapped address is a public address.
    await request(dispatcher.url)
      .put('/api/v1/webhooks/settings')
      .set(asTenant(tenantId))
      .send({ url: 'https://[::ffff:808:808]/hook' })
      .expect(200);
  });

  it('when the sender is asked to connect to an embedded loopback or metadata address, then it refuses before connecting', async () => {
    const sender = new WebhookSender(new AddressPolicy(true, ''), {
      timeoutMs: 1000,
      excerptBytes: 100,
      connectionsPerOrigin: 1,
    });
    try {
      for (const host of [
        '::127.0.0.1',
        '::7f00:1',
        '::ffff:0:7f00:1',
        '::a9fe:a9fe',
        '::ffff:0:a9fe:a9fe',
      ]) {
        const outcome = await sender.send(
          `http://[${host}]:${receiver.port}/hook`,
          { 'content-type': 'application/json' },
          '{}',
          new AbortController().signal,
        );
        expect([host, outcome]).toEqual([
          host,
          expect.objectContaining({
            httpStatus: null,
            retryable: false,
            error: expect.stringMatching(/loopback|link-local/),
          }),
        ]);
      }
    } finally {
      await sender.close();
    }
    expect(receiver.connections).toBe(0);
  });
});
