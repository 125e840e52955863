import { createLogger, type AmqpClient, type AmqpClientOptions, type ConsumedMessage } from '@bm/platform';
import { uniqueSuffix, waitFor } from '@bm/platform/testing';
import { closeAfter, config, env, runAmqpClient, useBrokerView } from './support/broker';

const logger = createLogger('amqp-client-test', config.LOG_LEVEL);
const broker = useBrokerView();
const closeLater = closeAfter();

function newClient(overrides: Partial<AmqpClientOptions> = {}): AmqpClient {
  const client = runAmqpClient(logger, overrides);
  closeLater(() => client.close());
  return client;
}

describe('AmqpClient publish and consume', () => {
  it('when an event is published, then the consumer gets its payload, messageId, routing key and headers', async () => {
    const s = uniqueSuffix();
    const client = newClient();
    await client.connect();
    const received: ConsumedMessage[] = [];
    await client.consume(`roundtrip-${s}`, [`test.${s}.#`], (message) => {
      received.push(message);
      return Promise.resolve();
    });

    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await client.publish(
      `test.${s}.order.created`,
      { orderId: 7 },
      { messageId: `m-${s}`, headers: { traceparent } },
    );

    await waitFor(() => received.length > 0, { what: 'delivery' });
    expect(received).toEqual([
      {
        payload: { orderId: 7 },
        messageId: `m-${s}`,
        routingKey: `test.${s}.order.created`,
        headers: { traceparent },
        attempt: 1,
        redelivered: false,
      },
    ]);
  });

  it('when a queue has a single active consumer, then the other client stands by and takes over when it goes', async () => {
    const s = uniqueSuffix();
    const first = newClient();
    const second = newClient();
    await first.connect();
    await second.connect();
    const got: Array<{ by: string; n: number }> = [];
    const consume = (client: AmqpClient, by: string) =>
      client.consume(
        `single-${s}`,
        [`test.${s}.#`],
        (message) => {
          got.push({ by, n: (message.payload as { n: number }).n });
          return Promise.resolve();
        },
        { singleActiveConsumer: true },
      );
    await consume(first, 'first');
    await consume(second, 'second');
    for (let n = 1; n <= 20; n += 1) await first.publish(`test.${s}.e`, { n }, { messageId: `m-${s}-${n}` });
    await waitFor(() => got.length === 20, { what: 'the first twenty' });
    expect(got.map((g) => g.by)).toEqual(Array(20).fill('first'));
    expect(got.map((g) => g.n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));

    await first.close();
    await second.publish(`test.${s}.e`, { n: 22 }, { messageId: `m-${s}-22` });
    await waitFor(() => got.some((g) => g.n === 22), { what: 'the stand-by taking over' });
    expect(got.at(-1)).toEqual({ by: 'second', n: 22 });
  });

  it('when publish resolves, then the message is already in the bound queue, persistent and JSON', async () => {
    const s = uniqueSuffix();
    const client = newClient();
    await client.connect();
    const ch = await broker.connection.createChannel();
    const queue = `${config.AMQP_PREFIX}.raw-${s}`;
    await ch.assertQueue(queue, {
      durable: true,
      arguments: { 'x-expires': Number(env.AMQP_QUEUE_EXPIRES_MS) },
    });
    await ch.bindQueue(queue, client.exchange, `test.${s}.#`);

    await client.publish(`test.${s}.thing`, { n: 1 }, { messageId: `m-${s}` });

    // No waiting: a confirm means the broker has taken the message into the queue.
    const msg = await ch.get(queue, { noAck: true });
    await ch.close();
    expect(msg).not.toBe(false);
    if (msg === false) return;
    expect(msg.properties.deliveryMode).toBe(2);
    expect(msg.properties.contentType).toBe('application/json');
    expect(msg.properties.messageId).toBe(`m-${s}`);
    expect(JSON.parse(msg.content.toString())).toEqual({ n: 1 });
  });

  it('when the client is not connected, then publish rejects at once', async () => {
    const client = newClient();

    await expect(client.publish('test.nowhere', {}, { messageId: 'x' })).rejects.toThrow(
      'amqp not connected',
    );
  });

  it('when the broker refuses the credentials, then connect rejects instead of retrying forever', async () => {
    const url = new URL(config.AMQP_URL);
    url.password = 'wrong-password';
    const client = newClient({ url: url.toString() });

    await expect(client.connect()).rejects.toThrow('ACCESS-REFUSED');
    expect(client.isConnected()).toBe(false);
  });

  it('when the client is closed, then it is not connected and does not come back', async () => {
    const client = newClient();
    await client.connect();
    expect(client.isConnected()).toBe(true);

    await client.close();

    expect(client.isConnected()).toBe(false);
    await client.connect();
    expect(client.isConnected()).toBe(false);
  });
});
