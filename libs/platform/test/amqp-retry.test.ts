import { createLogger, type AmqpClient, type ConsumedMessage } from '@bm/platform';
import { uniqueSuffix, waitFor } from '@bm/platform/testing';
import { closeAfter, config, runAmqpClient, useBrokerView } from './support/broker';

const logger = createLogger('amqp-retry-test', config.LOG_LEVEL);
const broker = useBrokerView();
const closeLater = closeAfter();

function newClient(): AmqpClient {
  const client = runAmqpClient(logger, { retryDelayMs: 50, maxDeliveries: 3 });
  closeLater(() => client.close());
  return client;
}

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
    expect(await broker.ready(queue)).toBe(0);
    expect(await broker.ready(`${queue}.retry`)).toBe(0);
    expect(await broker.ready(`${queue}.dlq`)).toBe(0);
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

    const dead = await waitFor(
      async () => broker.channel.get(`${config.AMQP_PREFIX}.${queue}.dlq`, { noAck: true }),
      {
        what: 'dead letter',
      },
    );
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
    expect(await broker.ready(queue)).toBe(0);
    expect(await broker.ready(`${queue}.retry`)).toBe(0);
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

    broker.channel.publish(client.exchange, `test.${s}.garbage`, Buffer.from('{not json'), {
      messageId: `m-${s}`,
    });

    const dead = await waitFor(
      async () => broker.channel.get(`${config.AMQP_PREFIX}.${queue}.dlq`, { noAck: true }),
      {
        what: 'dead letter',
      },
    );
    expect(dead.content.toString()).toBe('{not json');
    expect(dead.properties.headers).toMatchObject({ 'x-bm-error': 'content is not JSON' });
    expect(calls).toBe(0);
  });
});
