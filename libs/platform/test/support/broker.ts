import amqp, { type Channel, type ChannelModel } from 'amqplib';
import type { Logger } from 'winston';
import {
  AmqpClient,
  commonEnvSchema,
  loadConfig,
  type AmqpClientOptions,
  type CommonConfig,
} from '@bm/platform';
import { testEnv } from '@bm/platform/testing';

/** This run's environment, and the configuration every service reads from it. */
export const env = testEnv();
export const config = loadConfig<CommonConfig>(commonEnvSchema, env);

/** A client on this run's broker and exchange, with the options a test sets on top. */
export function runAmqpClient(logger: Logger, options: Partial<AmqpClientOptions> = {}): AmqpClient {
  return new AmqpClient({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    logger,
    queueExpiresMs: Number(env.AMQP_QUEUE_EXPIRES_MS),
    ...options,
  });
}

/** Registers closers that run after each test (or after all of them), the last registered first. */
export function closeAfter(
  hook: typeof afterEach = afterEach,
): (...close: Array<() => Promise<unknown>>) => void {
  const closers: Array<() => Promise<unknown>> = [];
  hook(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return (...close) => {
    closers.push(...close);
  };
}

export interface BrokerView {
  readonly connection: ChannelModel;
  readonly channel: Channel;
  /** Ready (not unacked) messages in a queue of this run. */
  ready(queue: string): Promise<number>;
}

/** A plain amqplib connection and channel to look into the broker, open for the file's tests. */
export function useBrokerView(): BrokerView {
  let connection: ChannelModel | undefined;
  let channel: Channel | undefined;
  beforeAll(async () => {
    connection = await amqp.connect(config.AMQP_URL);
    channel = await connection.createChannel();
  });
  afterAll(async () => {
    await connection?.close();
  });
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the broker view opens in beforeAll');
    return value;
  };
  return {
    get connection() {
      return opened(connection);
    },
    get channel() {
      return opened(channel);
    },
    ready: async (queue) => (await opened(channel).checkQueue(`${config.AMQP_PREFIX}.${queue}`)).messageCount,
  };
}
