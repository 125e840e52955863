import net from 'node:net';
import { createLogger, type AmqpClient, type ConsumedMessage } from '@bm/platform';
import { uniqueSuffix, waitFor } from '@bm/platform/testing';
import { config, runAmqpClient, useBrokerView } from './support/broker';

const logger = createLogger('amqp-reconnect-test', config.LOG_LEVEL);
const broker = new URL(config.AMQP_URL);

/** A TCP hop between client and broker whose sockets the test can cut, so the shared broker keeps running. */
class TcpProxy {
  accepted = 0;
  refusing = false;
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((downstream) => this.pipe(downstream));

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(): string {
    const url = new URL(config.AMQP_URL);
    url.port = String((this.server.address() as net.AddressInfo).port);
    return url.toString();
  }

  cut(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private pipe(downstream: net.Socket): void {
    if (this.refusing) return void downstream.destroy();
    this.accepted += 1;
    const upstream = net.connect(Number(broker.port || 5672), broker.hostname);
    for (const [a, b] of [
      [downstream, upstream],
      [upstream, downstream],
    ]) {
      this.sockets.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => (this.sockets.delete(a), b.destroy()));
    }
  }
}

let proxy: TcpProxy;
let client: AmqpClient;
const view = useBrokerView();

beforeEach(async () => {
  proxy = await new TcpProxy().listen();
  client = runAmqpClient(logger, { url: proxy.url(), maxReconnectDelayMs: 300 });
  await client.connect();
});
afterEach(async () => {
  await client.close();
  await proxy.close();
});

function collect(into: ConsumedMessage[]) {
  return (message: ConsumedMessage) => (into.push(message), Promise.resolve());
}

describe('AmqpClient reconnect', () => {
  it('when the connection drops, then the client reconnects and consuming and publishing work again', async () => {
    const s = uniqueSuffix();
    const received: ConsumedMessage[] = [];
    await client.consume(`reconnect-${s}`, [`test.${s}.#`], collect(received));
    await client.publish(`test.${s}.before`, {}, { messageId: `before-${s}` });
    await waitFor(() => received.length === 1, { what: 'first delivery' });

    proxy.cut();

    await waitFor(() => proxy.accepted >= 2 && client.isConnected(), { what: 'reconnect' });
    await client.publish(`test.${s}.after`, {}, { messageId: `after-${s}` });
    await waitFor(() => received.some((m) => m.messageId === `after-${s}`), {
      what: 'delivery after reconnect',
    });
    // An ack cut off in the proxy may bring `before` back once more: at least once, consumers dedupe.
    expect(new Set(received.map((m) => m.messageId))).toEqual(new Set([`before-${s}`, `after-${s}`]));
  });

  it('when the broker is unreachable, then publish rejects at once and works again once it is back', async () => {
    const s = uniqueSuffix();
    const received: ConsumedMessage[] = [];
    await client.consume(`outage-${s}`, [`test.${s}.#`], collect(received));
    proxy.refusing = true;
    proxy.cut();
    await waitFor(() => !client.isConnected(), { what: 'disconnect' });

    await expect(client.publish(`test.${s}.lost`, {}, { messageId: `lost-${s}` })).rejects.toThrow(
      'not connected',
    );

    proxy.refusing = false;
    await waitFor(() => client.isConnected(), { what: 'reconnect' });
    await client.publish(`test.${s}.back`, {}, { messageId: `back-${s}` });
    await waitFor(() => received.length === 1, { what: 'delivery after outage' });
    expect(received[0].messageId).toBe(`back-${s}`);
  });

  it('when the connection drops while a handler runs, then the unacked message is delivered again', async () => {
    const s = uniqueSuffix();
    const received: ConsumedMessage[] = [];
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await client.consume(`inflight-${s}`, [`test.${s}.#`], (message) => {
      received.push(message);
      return received.length === 1 ? gate : Promise.resolve();
    });
    await client.publish(`test.${s}.work`, { job: 1 }, { messageId: `work-${s}` });
    await waitFor(() => received.length === 1, { what: 'first delivery' });

    proxy.cut();

    await waitFor(() => received.length === 2, { what: 'redelivery' });
    release();
    expect(received[1]).toMatchObject({ messageId: `work-${s}`, payload: { job: 1 } });
  });

  it('when closed while a handler runs, then close waits for the handler and the message is acked', async () => {
    const s = uniqueSuffix();
    const queue = `${config.AMQP_PREFIX}.drain-${s}`;
    const order: string[] = [];
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await client.consume(`drain-${s}`, [`test.${s}.#`], async () => {
      order.push('started');
      await gate;
      order.push('handled');
    });
    await client.publish(`test.${s}.work`, {}, { messageId: `work-${s}` });
    await waitFor(() => order.length === 1, { what: 'handler start' });
    const ch = await view.connection.createChannel();

    const closing = client.close().then(() => order.push('closed'));
    // Release the handler only once the consumer is cancelled, i.e. close() is well under way.
    await waitFor(async () => (await ch.checkQueue(queue)).consumerCount === 0, {
      what: 'consumer cancelled',
    });
    release();
    await closing;

    expect(order).toEqual(['started', 'handled', 'closed']);
    expect((await ch.checkQueue(queue)).messageCount).toBe(0);
    await ch.close();
  });
});
