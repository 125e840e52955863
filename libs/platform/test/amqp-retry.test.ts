import amqp, { type Channel, type ChannelModel } from 'amqplib';
import {
  AmqpClient,
  commonEnvSchema,
  createLogger,
  loadConfig,
  type CommonConfig,
  type ConsumedMessage,
} from '@bm/platform';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';

const env = testEnv();
const config = loadConfig<CommonConfig>(commonEnvSchema, env);
const logger = createLogger('amqp-retry-test', config.LOG_LEVEL);
const clients: AmqpClient[] = [];
let raw: ChannelModel;
let ch: Channel;

function newClient(): AmqpClient {
  const client = new AmqpClient({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    logger,
    queueExpiresMs: Number(env.AMQP_QUEUE_EXPIRES_MS),
    retryDelayMs: 50,
    maxDeliveries: 3,
  });
  clients.push(client);
  return client;
}

/** Ready (not unacked) messages in a queue of this run. */
async function ready(queue: string): Promise<number> {
  return (await ch.checkQueue(`${config.AMQP_PREFIX}.${queue}`)).messageCount;
}

beforeAll(async () => {
  raw = await amqp.connect(config.AMQP_URL);
  ch = await raw.createChannel();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await raw.close();
});

describe('AmqpClient retries and dead-lettering', () => {
  it('when a handler fails twice then succeeds, then it is retried with the same message and acked once', async () => {
    const s = uniqueSuffix();
    const queue = `flaky-${s}`;
    const client = newClient();
    await client.connect();
    const seen: ConsumedMessage[] = [];
    await client.consume(queue, [`test.${s}.#`], (message) => {
      seen.push(message);
      return message.attempt < 3 ? Promise.reject(new Error('not yet')) : Promise.resolve();
    });

    await client.publish(
      `test.${s}.sent`,
      { k: 'v' },
      { messageId: `m-${s}`, headers: { traceparent: 't1' } },
    );

    await waitFor(() => seen.length === 3, { what: 'third attempt' });
    // close() drains: an unacked message would be back in the queue afterwards.
    await client.close();
    expect(seen.map((m) => m.attempt)).toEqual([1, 2, 3]);
    for (const m of seen) {
      expect(m).toMatchObject({ messageId: `m-${s}`, routingKey: `test.${s}.sent`, payload: { k: 'v' } });
      expect(m.headers).toEqual({ traceparent: 't1' });
    }
    expect(await ready(queue)).toBe(0);
    expect(await ready(`${queue}.retry`)).toBe(0);
    expect(await ready(`${queue}.dlq`)).toBe(0);
  });

  it('when a handler always fails, then after maxDeliveries attempts the message is in the DLQ and acked', async () => {
    const s = uniqueSuffix();
    const queue = `broken-${s}`;
    const client = newClient();
    await client.connect();
    const attempts: number[] = [];
    await client.consume(queue, [`test.${s}.#`], (message) => {
      attempts.push(message.attempt);
      return Promise.reject(new Error('handler exploded'));
    });

    await client.publish(
      `test.${s}.sent`,
      { k: 'v' },
      { messageId: `m-${s}`, headers: { traceparent: 't2' } },
    );

    const dead = await waitFor(async () => ch.get(`${config.AMQP_PREFIX}.${queue}.dlq`, { noAck: true }), {
      what: 'dead letter',
    });
    await client.close();
    expect(attempts).toEqual([1, 2, 3]);
    expect(JSON.parse(dead.content.toString())).toEqual({ k: 'v' });
    expect(dead.properties.messageId).toBe(`m-${s}`);
    expect(dead.properties.deliveryMode).toBe(2);
    expect(dead.properties.headers).toMatchObject({
      traceparent: 't2',
      'x-bm-attempt': 3,
      'x-bm-routing-key': `test.${s}.sent`,
      'x-bm-error': 'handler exploded',
    });
    expect(await ready(queue)).toBe(0);
    expect(await ready(`${queue}.retry`)).toBe(0);
  });

  it('when a message is not JSON, then it goes to the DLQ without reaching the handler', async () => {
    const s = uniqueSuffix();
    const queue = `poison-${s}`;
    const client = newClient();
    await client.connect();
    let calls = 0;
    await client.consume(queue, [`test.${s}.#`], () => {
      calls += 1;
      return Promise.resolve();
    });

    ch.publish(client.exchange, `test.${s}.garbage`, Buffer.from('{not json'), { messageId: `m-${s}` });

    const dead = await waitFor(async () => ch.get(`${config.AMQP_PREFIX}.${queue}.dlq`, { noAck: true }), {
      what: 'dead letter',
    });
    expect(dead.content.toString()).toBe('{not json');
    expect(dead.properties.headers).toMatchObject({ 'x-bm-error': 'content is not JSON' });
    expect(calls).toBe(0);
  });
});
